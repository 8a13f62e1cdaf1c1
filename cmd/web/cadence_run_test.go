package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// cadenceRuntime is a workflow runtime under /rt that counts the reconciliation GETs it gets.
type cadenceRuntime struct {
	mu       sync.Mutex
	lists    int
	gets     []string // bookmark ids asked for, decoded
	rejected []string // requests with a bad signature or on no route
}

func (c *cadenceRuntime) serve(secret string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		rawPath, _, _ := strings.Cut(r.RequestURI, "?")
		const list = "/rt/user-task-bookmarks"
		switch {
		case !workflow.VerifySignature([]byte(secret), []byte(r.RequestURI), r.Header.Get(workflow.SignatureHeader)):
			c.rejected = append(c.rejected, r.RequestURI)
			w.WriteHeader(http.StatusUnauthorized)
		case rawPath == list:
			c.lists++
			io.WriteString(w, `{"items":[],"nextCursor":""}`)
		case strings.HasPrefix(rawPath, list+"/") && !strings.Contains(strings.TrimPrefix(rawPath, list+"/"), "/"):
			id := strings.TrimPrefix(r.URL.Path, list+"/")
			c.gets = append(c.gets, id)
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"bookmarkId": id})
		default:
			c.rejected = append(c.rejected, r.RequestURI)
			http.NotFound(w, r)
		}
	}
}

func (c *cadenceRuntime) counts() (lists int, gets, rejected []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lists, append([]string(nil), c.gets...), append([]string(nil), c.rejected...)
}

// The configured reconciliation interval and quiet period reach the running server's workers:
// with 200 ms and 100 ms, a task projected a moment ago is checked against the runtime several
// times within seconds (the defaults would wait a minute, then skip it for five).
func TestServeReconcilesOnTheConfiguredCadence(t *testing.T) {
	const secret = "cadence-secret"
	path := filepath.Join(t.TempDir(), "ut.db")
	vars := productionVars(path)
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"migrate", "up"}, env(vars), &out, &errOut); code != 0 {
		t.Fatalf("migrate up exited %d: %s", code, errOut.String())
	}
	const bookmark = "proc/1/step"
	projectTask(t, vars, "acme", bookmark)

	rt := &cadenceRuntime{}
	srv := httptest.NewServer(rt.serve(secret))
	defer srv.Close()
	vars["USERTASKS_RUNTIME_URL"] = srv.URL + "/rt/"
	vars["USERTASKS_RUNTIME_SECRET"] = secret
	vars["USERTASKS_RECONCILE_INTERVAL"] = "200ms"
	vars["USERTASKS_RECONCILE_QUIET_PERIOD"] = "100ms"
	startServe(t, vars)

	deadline := time.Now().Add(20 * time.Second)
	for {
		lists, gets, rejected := rt.counts()
		if len(rejected) > 0 {
			t.Fatalf("the runtime rejected %q", rejected)
		}
		if lists >= 3 && len(gets) >= 3 {
			for _, id := range gets {
				if id != bookmark {
					t.Fatalf("the runtime was asked for %q, want %q", id, bookmark)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s the runtime saw %d listings and %d bookmark GETs, want at least 3 of each", lists, len(gets))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// projectTask stores one open task of tenant with the given bookmark id, through the real
// projection transition.
func projectTask(t *testing.T, vars map[string]string, tenant, bookmarkID string) {
	t.Helper()
	keys, err := keyring.Parse(vars["USERTASKS_ENCRYPTION_KEYS"])
	if err != nil {
		t.Fatal(err)
	}
	// A second store on the server's database, closed at once: the server keeps running alone.
	s := testfactory.Open(t, vars["USERTASKS_DATABASE_URL"], &testfactory.StoreOpts{Keys: keys})
	defer s.Close()
	testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{Tenant: tenant, Title: "Approve invoice", Assignee: "ann",
		Projection: func(p *models.Projection) {
			p.Workflow = models.WorkflowLink{DefinitionID: "invoice", InstanceID: "wf-1", ActivityInstanceID: "approve", BookmarkID: bookmarkID}
		}})
}
