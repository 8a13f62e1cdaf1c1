package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// The example engine of docs/runtime-protocol.md's walk-through, and the `sh server` runner.

// Secrets of the server the `sh server` blocks talk to.
const (
	docRuntimeSecret = "example-runtime-secret-0123456789"
	docMetricsToken  = "example-metrics-token"
)

// validSignature is the signature check of docs/runtime-protocol.md, character for character
// (TestDocEngineCheckIsTheDocs keeps the two the same).
func validSignature(secret, message []byte, header string) bool {
	mac := hmac.New(sha256.New, secret)
	mac.Write(message)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(header), []byte(want))
}

// engineStub is the example engine: it refuses a request whose signature is wrong, saves what
// it receives under dir (stimulus.json, stimulus.sig, stimulus.key; list.target, list.sig;
// get.target, get.sig), acknowledges stimuli with 204, and answers the reconciliation from
// dir/bookmarks.json, a JSON array of projection bodies (absent: no committed bookmark; caught
// half-written by the script: 503, which the reconciliation takes as no answer).
type engineStub struct {
	dir, secret string
	mu          sync.Mutex
	problems    []string
}

// enginePath is the path of the engine's runtime URL: the runtime endpoints go under it.
const enginePath = "/engine"

func (e *engineStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sig := r.Header.Get("X-UserTasks-Signature")
	list := enginePath + "/user-task-bookmarks"
	switch {
	case r.Method == http.MethodPost && r.URL.EscapedPath() == enginePath+"/user-task-stimuli":
		body, err := io.ReadAll(r.Body)
		if err != nil || !validSignature([]byte(e.secret), body, sig) {
			e.refuse(w, "a stimulus with a wrong signature")
			return
		}
		// The body last: the walk-through waits for stimulus.json, then reads the others.
		e.save("stimulus.sig", []byte(sig))
		e.save("stimulus.key", []byte(r.Header.Get("Idempotency-Key")))
		e.save("stimulus.json", body)
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.EscapedPath() == list:
		if !validSignature([]byte(e.secret), []byte(r.RequestURI), sig) {
			e.refuse(w, "a listing with a wrong signature")
			return
		}
		items, ok := e.bookmarks()
		if !ok {
			http.Error(w, "bookmarks.json is being written", http.StatusServiceUnavailable)
			return
		}
		e.save("list.sig", []byte(sig))
		e.save("list.target", []byte(r.RequestURI))
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": ""})
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.EscapedPath(), list+"/"):
		if !validSignature([]byte(e.secret), []byte(r.RequestURI), sig) {
			e.refuse(w, "a bookmark read with a wrong signature")
			return
		}
		id, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), list+"/"))
		if err != nil {
			e.refuse(w, "a bookmark id that does not decode")
			return
		}
		items, ok := e.bookmarks()
		if !ok {
			http.Error(w, "bookmarks.json is being written", http.StatusServiceUnavailable)
			return
		}
		e.save("get.sig", []byte(sig))
		e.save("get.target", []byte(r.RequestURI))
		for _, b := range items {
			var ref struct {
				BookmarkID string `json:"bookmarkId"`
			}
			if json.Unmarshal(b, &ref) == nil && ref.BookmarkID == id {
				writeJSON(w, http.StatusOK, b)
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"code": "bookmark-not-found"})
	default:
		e.refuse(w, "an unexpected "+r.Method+" "+r.RequestURI)
	}
}

// bookmarks reads bookmarks.json: none when it is not there, false when it is not (yet) a
// JSON array.
func (e *engineStub) bookmarks() ([]json.RawMessage, bool) {
	items := []json.RawMessage{}
	b, err := os.ReadFile(filepath.Join(e.dir, "bookmarks.json"))
	if err != nil {
		return items, true
	}
	return items, json.Unmarshal(b, &items) == nil
}

// save writes a file of dir whole: a reader never sees it half-written.
func (e *engineStub) save(name string, b []byte) {
	tmp := filepath.Join(e.dir, "."+name)
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		e.problem(err.Error())
		return
	}
	if err := os.Rename(tmp, filepath.Join(e.dir, name)); err != nil {
		e.problem(err.Error())
	}
}

func (e *engineStub) refuse(w http.ResponseWriter, what string) {
	e.problem("the engine got " + what)
	http.Error(w, what, http.StatusUnauthorized)
}

func (e *engineStub) problem(p string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.problems = append(e.problems, p)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// runServerBlocks joins the blocks into one script and runs it in a fresh folder against a
// `web serve` (productionVars on a fresh SQLite file, issuer and audience as there) whose
// runtime is the example engine, saving into the folder's engine/. The script gets
// USERTASKS_URL, JWT_SECRET, RUNTIME_SECRET and METRICS_TOKEN.
func runServerBlocks(t *testing.T, blocks []string) {
	needTools(t, "sh", "curl", "jq", "openssl")
	dir := t.TempDir()
	engine := &engineStub{dir: filepath.Join(dir, "engine"), secret: docRuntimeSecret}
	if err := os.Mkdir(engine.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stub := httptest.NewServer(engine)
	t.Cleanup(stub.Close)
	vars := productionVarsWith(t, map[string]string{
		"USERTASKS_RUNTIME_URL":            stub.URL + enginePath,
		"USERTASKS_RUNTIME_SECRET":         docRuntimeSecret,
		"USERTASKS_RECONCILE_INTERVAL":     "1s",
		"USERTASKS_RECONCILE_QUIET_PERIOD": "1s",
		"USERTASKS_METRICS_TOKEN":          docMetricsToken,
	})
	base := startServe(t, vars, "--migrate")
	runDocBlocks(t, dir, []string{strings.Join(blocks, "")}, map[string]string{
		"USERTASKS_URL": base, "JWT_SECRET": vars["USERTASKS_JWT_HS256_SECRET"],
		"RUNTIME_SECRET": docRuntimeSecret, "METRICS_TOKEN": docMetricsToken,
	})
	engine.mu.Lock()
	defer engine.mu.Unlock()
	if len(engine.problems) > 0 {
		t.Fatalf("the example engine: %s", strings.Join(engine.problems, "; "))
	}
}

// goBlock is a ```go block of a page.
var goBlock = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// TestDocEngineCheckIsTheDocs: the Go signature check docs/runtime-protocol.md shows is the
// one the example engine above runs.
func TestDocEngineCheckIsTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/runtime-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("docs_engine_test.go")
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllSubmatch(doc, -1)
	if len(blocks) == 0 {
		t.Fatal("docs/runtime-protocol.md shows no Go signature check")
	}
	for _, b := range blocks {
		if !strings.Contains(string(self), string(b[1])) {
			t.Errorf("docs/runtime-protocol.md shows Go code the example engine does not run:\n%s", b[1])
		}
	}
}
