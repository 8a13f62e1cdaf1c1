package workers_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
	"usertasks/workflow/workflowtest"
)

// Ways the bookmark endpoint of wkBookmarkRuntime can answer besides the runtime itself.
const (
	wkAnswerRuntime   = ""           // the runtime: 200 with the body, or the exact bookmark-not-found
	wkAnswerProxyHTML = "proxy-html" // a proxy's HTML 404 page
	wkAnswerEmpty404  = "empty-404"  // a 404 without a body
	wkAnswerOtherCode = "other-code" // a JSON 404 with another code
	wkAnswer503       = "503"        // the runtime is unavailable
	wkAnswerHangUp    = "hang-up"    // the connection closes without an answer
)

// wkBookmarkRuntime is a workflow runtime behind httptest, mounted under a base path, that
// serves the reconciliation GETs of SPEC 5.2 like a strict router: the bookmark id must arrive
// as exactly one escaped path segment, and a "." or ".." segment is normalized away as a proxy
// would, so anything else lands on no route and gets a plain 404.
type wkBookmarkRuntime struct {
	secret string
	prefix string // the base path, escaped, without a trailing slash
	server *httptest.Server

	mu        sync.Mutex
	committed map[string]map[string]json.RawMessage
	answer    string
	gets      []string // decoded ids of the bookmark GETs the runtime itself answered
	strays    []string // request targets that matched no route
	badSigs   int
}

func newWKBookmarkRuntime(t *testing.T, prefix string) *wkBookmarkRuntime {
	r := &wkBookmarkRuntime{secret: "reconcile-secret", prefix: prefix, committed: map[string]map[string]json.RawMessage{}}
	r.server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.server.Close)
	return r
}

// client is the HTTPRuntime on baseSuffix (the base path as configured, e.g. with a trailing slash).
func (r *wkBookmarkRuntime) client(t *testing.T, baseSuffix string) *workflow.HTTPRuntime {
	t.Helper()
	c, err := workflow.NewHTTPRuntime(r.server.URL+baseSuffix, r.secret, workflow.HTTPRuntimeOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (r *wkBookmarkRuntime) commitTask(task models.Task) {
	body, _ := json.Marshal(map[string]any{"bookmarkId": task.Workflow.BookmarkID, "workflowInstanceId": task.Workflow.InstanceID})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.committed[task.Tenant] == nil {
		r.committed[task.Tenant] = map[string]json.RawMessage{}
	}
	r.committed[task.Tenant][task.Workflow.BookmarkID] = body
}

func (r *wkBookmarkRuntime) setAnswer(a string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answer = a
}

// seen returns the ids the bookmark endpoint was asked for, the stray targets and the requests
// with a bad signature.
func (r *wkBookmarkRuntime) seen() (gets, strays []string, badSigs int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.gets), slices.Clone(r.strays), r.badSigs
}

func (r *wkBookmarkRuntime) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !workflow.VerifySignature([]byte(r.secret), []byte(req.RequestURI), req.Header.Get(workflow.SignatureHeader)) {
		r.badSigs++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	rawPath, _, _ := strings.Cut(req.RequestURI, "?")
	tenant := req.URL.Query().Get("tenant")
	list := r.prefix + "/user-task-bookmarks"
	switch {
	case req.Method == http.MethodGet && rawPath == list:
		r.list(w, tenant, req.URL.Query().Get("cursor"), req.URL.Query().Get("limit"))
	case req.Method == http.MethodGet && strings.HasPrefix(rawPath, list+"/") && wkOneSegment(strings.TrimPrefix(rawPath, list+"/")):
		id, _ := url.PathUnescape(strings.TrimPrefix(rawPath, list+"/"))
		r.bookmark(w, tenant, id)
	default:
		r.strays = append(r.strays, req.RequestURI)
		http.NotFound(w, req)
	}
}

// wkOneSegment reports whether a router would see seg as one path segment that no
// normalization removes.
func wkOneSegment(seg string) bool {
	return seg != "" && seg != "." && seg != ".." && !strings.Contains(seg, "/")
}

func (r *wkBookmarkRuntime) list(w http.ResponseWriter, tenant, cursor, limit string) {
	n, _ := strconv.Atoi(limit)
	var ids []string
	for id := range r.committed[tenant] {
		if id > cursor {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	next := ""
	if n > 0 && len(ids) > n {
		ids = ids[:n]
		next = ids[n-1]
	}
	items := []json.RawMessage{}
	for _, id := range ids {
		items = append(items, r.committed[tenant][id])
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"items": items, "nextCursor": next})
}

func (r *wkBookmarkRuntime) bookmark(w http.ResponseWriter, tenant, id string) {
	switch r.answer {
	case wkAnswerProxyHTML:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<html><body>404 Not Found</body></html>")
		return
	case wkAnswerEmpty404:
		w.WriteHeader(http.StatusNotFound)
		return
	case wkAnswerOtherCode:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":"tenant-not-found"}`)
		return
	case wkAnswer503:
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case wkAnswerHangUp:
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	r.gets = append(r.gets, id)
	body, ok := r.committed[tenant][id]
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":"bookmark-not-found"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// Reconciliation against an HTTP runtime mounted under a base path that needs escaping asks
// for every bookmark by its exact id, whatever characters it holds: live tasks stay open and
// only the bookmark the runtime says is gone is finalized.
func TestReconcileHTTPRuntimeKeepsLiveTasks(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		log, _ := wkLogger(t)
		rt := newWKBookmarkRuntime(t, "/my%20rt/v1")

		var live []models.Task
		for _, c := range workflowtest.ProjectableBookmarkIDs() {
			task := wkProject(t, s, wkTaskOpts{BookmarkID: c.ID})
			rt.commitTask(task)
			live = append(live, task)
		}
		gone := wkProject(t, s, wkTaskOpts{BookmarkID: "gone/step 1"})
		clock.Advance(6 * time.Minute)

		// MaxRemembered 1: the listing is too long to remember, so every task is asked for.
		r := workers.NewReconciler(s, rt.client(t, "/my%20rt/v1/"), nil, workers.ReconcilerOptions{Logger: log, MaxRemembered: 1, PageSize: 5})
		run, err := r.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := run.Totals, (workers.ReconcileCounts{Finalized: 1}); got != want {
			t.Fatalf("totals %+v, want %+v", got, want)
		}
		for _, task := range live {
			got := wkGet(t, s, "t1", task.ID)
			if got.Status != models.StatusAssigned || got.Health != (models.Health{}) {
				t.Errorf("bookmark %q: task %s with health %+v, want assigned and healthy", task.Workflow.BookmarkID, got.Status, got.Health)
			}
		}
		if got := wkGet(t, s, "t1", gone.ID); got.Status != models.StatusCancelled {
			t.Errorf("the task whose bookmark is gone is %s, want cancelled", got.Status)
		}
		gets, strays, badSigs := rt.seen()
		if len(strays) != 0 || badSigs != 0 {
			t.Fatalf("requests on no route %q, %d bad signatures", strays, badSigs)
		}
		want := []string{gone.Workflow.BookmarkID}
		for _, c := range workflowtest.ProjectableBookmarkIDs() {
			want = append(want, c.ID)
		}
		slices.Sort(want)
		slices.Sort(gets)
		if !slices.Equal(gets, want) {
			t.Fatalf("the runtime was asked for %q, want %q", gets, want)
		}
	})
}

// Only the runtime's exact bookmark-not-found answer finalizes: a proxy's 404, an empty 404,
// another code or an error leaves every task as it is, counted ambiguous with advisory health;
// once the runtime answers clearly, gone bookmarks are finalized and the finding is cleared.
func TestReconcileHTTPRuntimeAmbiguousAnswers(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		log, logs := wkLogger(t)
		rt := newWKBookmarkRuntime(t, "/rt")

		open := wkProject(t, s, wkTaskOpts{BookmarkID: "proc/1/open"})
		completing := wkProject(t, s, wkTaskOpts{BookmarkID: "proc/1/completing"})
		wkComplete(t, s, completing, wkPayload)
		liveA := wkProject(t, s, wkTaskOpts{BookmarkID: "proc/1/live a"})
		liveB := wkProject(t, s, wkTaskOpts{BookmarkID: "proc/1/live b"})
		rt.commitTask(liveA)
		rt.commitTask(liveB)
		clock.Advance(6 * time.Minute)

		r := workers.NewReconciler(s, rt.client(t, "/rt"), nil, workers.ReconcilerOptions{Logger: log, MaxRemembered: 1})
		for _, answer := range []string{wkAnswerProxyHTML, wkAnswerEmpty404, wkAnswerOtherCode, wkAnswer503} {
			rt.setAnswer(answer)
			run, err := r.RunOnce(ctx)
			if err != nil {
				t.Fatalf("%s: %v", answer, err)
			}
			if got, want := run.Totals, (workers.ReconcileCounts{Ambiguous: 4}); got != want || run.Tenants["t1"].Error != "" {
				t.Fatalf("%s: totals %+v (error %q), want %+v", answer, got, run.Tenants["t1"].Error, want)
			}
			for id, status := range map[string]models.Status{open.ID: models.StatusAssigned, completing.ID: models.StatusCompleting,
				liveA.ID: models.StatusAssigned, liveB.ID: models.StatusAssigned} {
				got := wkGet(t, s, "t1", id)
				if got.Status != status {
					t.Fatalf("%s: task %s is %s, want %s", answer, id, got.Status, status)
				}
				if h := got.Health; h.Severity != models.SeverityAdvisory || h.Code != models.HealthRuntimeAnswerAmbiguous || h.Message == "" {
					t.Fatalf("%s: task %s health %+v, want advisory %s", answer, id, h, models.HealthRuntimeAnswerAmbiguous)
				}
			}
			if rows, _ := s.Resumptions(ctx, "t1", completing.ID); len(rows) != 1 || rows[0].State != models.DeliveryPending {
				t.Fatalf("%s: the completing task's outbox %+v, want its row pending and untouched", answer, rows)
			}
		}
		if strings.Contains(logs.String(), "404 Not Found") || strings.Contains(logs.String(), "tenant-not-found") {
			t.Fatalf("the logs carry the runtime's answer:\n%s", logs.String())
		}

		rt.setAnswer(wkAnswerRuntime)
		run, err := r.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := run.Totals, (workers.ReconcileCounts{Finalized: 2}); got != want {
			t.Fatalf("with clear answers: totals %+v, want %+v", got, want)
		}
		if got := wkGet(t, s, "t1", open.ID); got.Status != models.StatusCancelled || got.Outcome.ActionKey != models.ActionCancelled {
			t.Errorf("the open task whose bookmark is gone is %s (%+v), want cancelled", got.Status, got.Outcome)
		}
		if got := wkGet(t, s, "t1", completing.ID); got.Status != models.StatusCompleted {
			t.Errorf("the completing task whose bookmark is gone is %s, want completed", got.Status)
		}
		for _, task := range []models.Task{liveA, liveB} {
			if got := wkGet(t, s, "t1", task.ID); got.Status != models.StatusAssigned || got.Health != (models.Health{}) {
				t.Errorf("live task %s with health %+v, want assigned with the finding cleared", got.Status, got.Health)
			}
		}
		if _, strays, badSigs := rt.seen(); len(strays) != 0 || badSigs != 0 {
			t.Fatalf("requests on no route %q, %d bad signatures", strays, badSigs)
		}
	})
}

// A runtime that stops answering bookmark GETs at all ends the tenant's run after a few tasks,
// reported with the failure's code; nothing is finalized.
func TestReconcileHTTPRuntimeUnreachable(t *testing.T) {
	ctx := t.Context()
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	rt := newWKBookmarkRuntime(t, "/rt")
	var tasks []models.Task
	for range 8 {
		tasks = append(tasks, wkProject(t, s, wkTaskOpts{}))
	}
	clock.Advance(6 * time.Minute)
	rt.setAnswer(wkAnswerHangUp)

	r := workers.NewReconciler(s, rt.client(t, "/rt"), nil, workers.ReconcilerOptions{Logger: log})
	run, err := r.RunOnce(ctx)
	if err == nil || run.Tenants["t1"].Error != "transport" {
		t.Fatalf("run %+v, %v; want the tenant stopped with code transport", run.Tenants, err)
	}
	if got, want := run.Totals, (workers.ReconcileCounts{Ambiguous: 3}); got != want {
		t.Fatalf("totals %+v, want %+v: three tries, nothing finalized", got, want)
	}
	for _, task := range tasks {
		if got := wkGet(t, s, "t1", task.ID); got.Status != models.StatusAssigned {
			t.Fatalf("task %s is %s", task.ID, got.Status)
		}
	}
}
