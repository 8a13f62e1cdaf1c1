package workflow_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/workflow"
)

// wkNotFoundAnswers are 404 answers (and one 410) keyed by the bookmark id that gets them;
// only the first two are the runtime's "this bookmark no longer exists".
var wkNotFoundAnswers = map[string]struct {
	status      int
	contentType string
	body        string
	gone        bool
}{
	"gone":             {404, "application/json", `{"code":"bookmark-not-found"}`, true},
	"gone-charset":     {404, "application/json; charset=utf-8", " {\n  \"code\": \"bookmark-not-found\"\n}\n", true},
	"proxy-html":       {404, "text/html", "<html><body><h1>404 Not Found</h1>nginx internals</body></html>", false},
	"router-text":      {404, "text/plain; charset=utf-8", "404 page not found\n", false},
	"empty":            {404, "", "", false},
	"empty-json":       {404, "application/json", "", false},
	"other-code":       {404, "application/json", `{"code":"route-not-found"}`, false},
	"no-code":          {404, "application/json", `{}`, false},
	"code-not-string":  {404, "application/json", `{"code":404}`, false},
	"code-other-case":  {404, "application/json", `{"code":"Bookmark-Not-Found"}`, false},
	"right-body-text":  {404, "text/plain", `{"code":"bookmark-not-found"}`, false},
	"problem-json":     {404, "application/problem+json", `{"code":"bookmark-not-found"}`, false},
	"array":            {404, "application/json", `[{"code":"bookmark-not-found"}]`, false},
	"trailing-garbage": {404, "application/json", `{"code":"bookmark-not-found"} and more`, false},
	"huge":             {404, "application/json", `{"code":"bookmark-not-found","pad":"` + strings.Repeat("x", 1<<20) + `"}`, false},
	"gone-but-status":  {410, "application/json", `{"code":"bookmark-not-found"}`, false},
}

// Only the exact 404 {"code":"bookmark-not-found"} (application/json) says a bookmark is gone;
// every other 404 is an error that carries neither the answer nor the body.
func TestRuntimeHTTPBookmarkNotFound(t *testing.T) {
	const secret = "s3cret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !workflow.VerifySignature([]byte(secret), []byte(r.RequestURI), r.Header.Get(workflow.SignatureHeader)) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		id, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/rt/user-task-bookmarks/"))
		a, ok := wkNotFoundAnswers[id]
		if err != nil || !ok {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		if a.contentType != "" {
			w.Header().Set("Content-Type", a.contentType)
		} else {
			w.Header()["Content-Type"] = nil // no sniffing: no Content-Type at all
		}
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	defer srv.Close()
	rt, err := workflow.NewHTTPRuntime(srv.URL+"/rt", secret, workflow.HTTPRuntimeOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for id, a := range wkNotFoundAnswers {
		t.Run(id, func(t *testing.T) {
			found, body, err := rt.GetBookmark(t.Context(), "t1", id)
			if found || body != nil {
				t.Fatalf("found %v with body %q, want not found", found, body)
			}
			if a.gone {
				if err != nil {
					t.Fatalf("the exact bookmark-not-found answer: %v, want gone (no error)", err)
				}
				return
			}
			var re *workflow.RuntimeError
			if !errors.As(err, &re) || re.Status != a.status {
				t.Fatalf("got %v, want a RuntimeError with status %d", err, a.status)
			}
			if msg := err.Error(); strings.Contains(msg, "nginx") || strings.Contains(msg, "bookmark-not-found") || strings.Contains(msg, "page not found") {
				t.Fatalf("the error carries the answer: %q", msg)
			}
		})
	}
}
