package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"usertasks/integrations/temporal/usertask"
)

// dropper swallows the projections the stack says to drop, answering as User Tasks would have.
type dropper struct {
	s    *stack
	next http.RoundTripper
}

func (d *dropper) RoundTrip(r *http.Request) (*http.Response, error) {
	if d.s.dropProjection != nil && strings.HasSuffix(r.URL.Path, "/api/v1/runtime/bookmarks") && r.Body != nil {
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		var p usertask.Projection
		if json.Unmarshal(raw, &p) == nil && d.s.dropProjection(p) {
			return &http.Response{StatusCode: http.StatusCreated, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(`{"taskId":"lost","status":"Available","revision":1,"created":true}`)), Request: r}, nil
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
	}
	return d.next.RoundTrip(r)
}

// replayable reads r's body and returns a copy of the request that can be served first, leaving r
// readable again.
func replayable(t *testing.T, r *http.Request) *http.Request {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		t.Error(err)
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	c := r.Clone(r.Context())
	c.Body = io.NopCloser(bytes.NewReader(raw))
	return c
}

// discard is a response writer for the first of a duplicated delivery.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
