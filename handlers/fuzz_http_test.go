package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/handlers/handlerstest"
)

// fuzzServer is one server on the real router and a SQLite store, shared by every input of a
// fuzz target (a fuzzing worker process builds its own).
type fuzzServer struct {
	*handlerstest.Env
	client *http.Client
}

// newFuzzServer starts the server. With spreadAddresses every request comes over a new
// connection from another loopback address, so the per-address guest rate limit does not
// stop the fuzzer at the tenth input.
func newFuzzServer(f *testing.F, spreadAddresses bool) *fuzzServer {
	f.Helper()
	env := handlerstest.FuzzSQLite(f, nil)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if spreadAddresses {
		var n atomic.Uint32
		transport.DisableKeepAlives = true
		transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			i := n.Add(1)
			local := &net.TCPAddr{IP: net.IPv4(127, byte(1+i>>16%250), byte(i>>8), byte(i))}
			d := net.Dialer{LocalAddr: local, Timeout: 10 * time.Second}
			return d.DialContext(ctx, network, addr)
		}
	}
	f.Cleanup(transport.CloseIdleConnections)
	return &fuzzServer{Env: env, client: &http.Client{Transport: transport, Timeout: 30 * time.Second}}
}

// fuzzCall is one request of a fuzz input. Path may carry a query string of any bytes: those
// no HTTP client can send (controls, space, '#') are percent-encoded.
type fuzzCall struct {
	method, path string
	header       http.Header
	body         []byte
}

// send makes the call and checks what every answer must be: never a 5xx other than the
// table's, an error only as a problem of the table (handlers/problem.go), a success body
// well-formed JSON. It returns the status and body.
func (s *fuzzServer) send(t *testing.T, c fuzzCall) (int, []byte) {
	t.Helper()
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, s.URL+sendable(c.path), body)
	if err != nil {
		t.Fatalf("build request %s %q: %v", c.method, c.path, err)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if c.body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %q: %v", c.method, c.path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %q: read answer: %v", c.method, c.path, err)
	}
	checkAnswer(t, c, resp, out)
	return resp.StatusCode, out
}

func checkAnswer(t *testing.T, c fuzzCall, resp *http.Response, body []byte) {
	t.Helper()
	status, ct := resp.StatusCode, resp.Header.Get("Content-Type")
	switch {
	case status >= 400:
		var p handlerstest.Problem
		if ct != "application/problem+json" || json.Unmarshal(body, &p) != nil {
			t.Fatalf("%s %q: %d answer is not problem+json (%s):\n%s\nrequest body: %q", c.method, c.path, status, ct, body, c.body)
		}
		if p.Status != status || !handlers.DocumentedProblem(status, p.Code) {
			t.Fatalf("%s %q: %d %s is not a documented problem:\n%s\nrequest body: %q", c.method, c.path, status, p.Code, body, c.body)
		}
	case status >= 200 && status < 300:
		if len(body) == 0 {
			if status != http.StatusNoContent && status != http.StatusAccepted {
				t.Fatalf("%s %q: %d answer without a body", c.method, c.path, status)
			}
			return
		}
		if !strings.HasPrefix(ct, "application/json") || !json.Valid(body) {
			t.Fatalf("%s %q: %d answer is not well-formed JSON (%s):\n%s", c.method, c.path, status, ct, body)
		}
	default:
		t.Fatalf("%s %q: unexpected status %d", c.method, c.path, status)
	}
}

// sendable percent-encodes the bytes of a path and query that cannot travel in a request line.
func sendable(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch ch := p[i]; {
		case ch <= ' ' || ch == 0x7f || ch == '#' || ch >= 0x80:
			b.WriteString("%" + strings.ToUpper(hex2(ch)))
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func hex2(ch byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[ch>>4], digits[ch&15]})
}

// bearer is the Authorization header of a token.
func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}
