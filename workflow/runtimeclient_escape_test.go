package workflow_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/workflow"
	"usertasks/workflow/workflowtest"
)

// wkRequest is what the escape test's runtime received.
type wkRequest struct {
	method     string
	requestURI string // the request line's target, exactly as sent
	tenant     string
	signed     bool
}

// Every bookmark id travels as exactly one escaped path segment after the runtime URL's own
// path, whatever that path is; the stimuli and list endpoints keep the base path too.
func TestRuntimeHTTPEscapesBookmarkIDs(t *testing.T) {
	const secret = "s3cret"
	const tenant = "t 1&x=ü"
	var mu sync.Mutex
	var got []wkRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		signed := workflow.VerifySignature([]byte(secret), []byte(r.RequestURI), r.Header.Get(workflow.SignatureHeader))
		if r.Method == http.MethodPost {
			signed = workflow.VerifySignature([]byte(secret), body, r.Header.Get(workflow.SignatureHeader))
		}
		mu.Lock()
		got = append(got, wkRequest{method: r.Method, requestURI: r.RequestURI, tenant: r.URL.Query().Get("tenant"), signed: signed})
		mu.Unlock()
		switch {
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
		case strings.Contains(r.URL.Path, "/user-task-bookmarks/"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"bookmarkId":"any"}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"items":[],"nextCursor":""}`)
		}
	}))
	defer srv.Close()
	last := func(t *testing.T) wkRequest {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(got) == 0 {
			t.Fatal("the runtime received nothing")
		}
		r := got[len(got)-1]
		if !r.signed {
			t.Fatalf("%s %s: the signature does not cover what was sent", r.method, r.requestURI)
		}
		if r.tenant != tenant {
			t.Fatalf("%s %s: tenant %q, want %q", r.method, r.requestURI, r.tenant, tenant)
		}
		return r
	}
	tenantQuery := url.Values{"tenant": {tenant}}.Encode()

	for _, base := range []struct{ name, suffix, path string }{
		{"NoPath", "", ""},
		{"Path", "/rt", "/rt"},
		{"PathWithSlash", "/rt/", "/rt"},
		{"EscapedPath", "/my%20rt", "/my%20rt"},
		{"EscapedSlashInPath", "/a%2Fb/rt", "/a%2Fb/rt"},
	} {
		t.Run(base.name, func(t *testing.T) {
			rt, err := workflow.NewHTTPRuntime(srv.URL+base.suffix, secret, workflow.HTTPRuntimeOptions{Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range workflowtest.HostileBookmarkIDs {
				found, _, err := rt.GetBookmark(t.Context(), tenant, c.ID)
				if err != nil || !found {
					t.Fatalf("get %q: found %v, %v", c.ID, found, err)
				}
				r := last(t)
				want := base.path + "/user-task-bookmarks/" + c.Segment + "?" + tenantQuery
				if r.requestURI != want {
					t.Fatalf("get %q: sent %q, want %q", c.ID, r.requestURI, want)
				}
				rawPath, _, _ := strings.Cut(r.requestURI, "?")
				segment := strings.TrimPrefix(rawPath, base.path+"/user-task-bookmarks/")
				if strings.Contains(segment, "/") {
					t.Fatalf("get %q: %q is more than one segment", c.ID, segment)
				}
				if decoded, err := url.PathUnescape(segment); err != nil || decoded != c.ID {
					t.Fatalf("get %q: the segment decodes to %q, %v", c.ID, decoded, err)
				}
			}

			if _, _, err := rt.ListBookmarks(t.Context(), tenant, "", 10); err != nil {
				t.Fatal(err)
			}
			if r, want := last(t), base.path+"/user-task-bookmarks?"; !strings.HasPrefix(r.requestURI, want) {
				t.Fatalf("list sent %q, want %q…", r.requestURI, want)
			}

			if err := rt.Deliver(t.Context(), workflow.Stimulus{Tenant: "t1", TaskID: "task", OperationID: "op", ActionKey: "Approve"}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			r := got[len(got)-1]
			mu.Unlock()
			if want := base.path + "/user-task-stimuli"; r.method != http.MethodPost || r.requestURI != want || !r.signed {
				t.Fatalf("stimulus sent %s %q (signed %v), want POST %q", r.method, r.requestURI, r.signed, want)
			}
		})
	}
}
