package workers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// Fixtures of the worker tests: real stores (a SQLite file, or a fresh PostgreSQL database),
// tasks moved through the real transitions, and a test runtime behind httptest.

// wkDB is one migrated database the tests open stores (nodes) on.
type wkDB struct {
	name string
	url  string
}

func wkSQLite(t *testing.T) wkDB {
	t.Helper()
	return wkDB{name: "SQLite", url: testfactory.Database(t, testfactory.SQLite)}
}

// wkPostgres creates a fresh database on the PostgreSQL server of USERTASKS_TEST_POSTGRES_URL
// and drops it after the test. Unset: skipped, but a failure under CI=true.
func wkPostgres(t *testing.T) wkDB {
	t.Helper()
	return wkDB{name: "PostgreSQL", url: testfactory.Database(t, testfactory.Postgres)}
}

// open opens a store (one node) on the database; clock may be nil.
func (d wkDB) open(t *testing.T, clock *testfactory.Clock) store.Store {
	t.Helper()
	o := &testfactory.StoreOpts{}
	if clock != nil {
		o.Clock = clock.Now
	}
	return testfactory.Open(t, d.url, o)
}

// wkProviders runs fn on a SQLite file and on PostgreSQL.
func wkProviders(t *testing.T, fn func(t *testing.T, db wkDB)) {
	t.Run("SQLite", func(t *testing.T) { fn(t, wkSQLite(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { fn(t, wkPostgres(t)) })
}

const wkSchema = `{"type":"object","properties":{"decision":{"type":"string","enum":["approve","reject"]}}}`

// wkTaskOpts adjusts a fixture projection.
type wkTaskOpts struct {
	Tenant     string
	BookmarkID string // default "bm-<random>"
	DueAt      *time.Time
	Timeout    bool
	NoForm     bool
}

// wkProject projects a task assigned to ann with a form, cancellation enabled.
func wkProject(t *testing.T, s store.Store, o wkTaskOpts) models.Task {
	t.Helper()
	var form json.RawMessage
	if !o.NoForm {
		form = json.RawMessage(wkSchema)
	}
	return testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{
		Tenant: o.Tenant, Title: "Approve invoice", Assignee: "ann", DueAt: o.DueAt, TimeoutEnabled: o.Timeout,
		CancellationEnabled: true, Form: form,
		Projection: func(p *models.Projection) {
			p.Assignee.DisplayName = "Ann"
			if o.BookmarkID != "" {
				p.Workflow.BookmarkID = o.BookmarkID
			}
		},
	})
}

func wkAnn(tenant string) models.Actor {
	a := testfactory.Person(tenant, "ann")
	a.DisplayName, a.Subject.DisplayName = "Ann", "Ann"
	return a
}

func wkBoss(tenant string) models.Actor {
	a := testfactory.Manager(tenant, "boss")
	a.DisplayName = "Boss"
	return a
}

// wkComplete completes an assigned task as ann; it returns the accepted operation.
func wkComplete(t *testing.T, s store.Store, task models.Task, data string) models.Operation {
	t.Helper()
	opID := "complete-" + models.NewID()
	ch, err := s.Mutate(context.Background(), task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		cmd := models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: wkAnn(cur.Tenant), Prior: prior}
		return models.Complete(cur, cmd, models.ActionComplete, json.RawMessage(data), now)
	})
	if err != nil {
		t.Fatalf("complete: %v", err)
	}
	return *ch.Operation
}

// wkCancel cancels an open task as a manager.
func wkCancel(t *testing.T, s store.Store, task models.Task, reason string) models.Operation {
	t.Helper()
	opID := "cancel-" + models.NewID()
	ch, err := s.Mutate(context.Background(), task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		cmd := models.Command{OperationID: opID, ExpectedRevision: cur.Revision, Actor: wkBoss(cur.Tenant), Prior: prior}
		return models.Cancel(cur, cmd, reason, now)
	})
	if err != nil {
		t.Fatalf("cancel: %v", err)
	}
	return *ch.Operation
}

func wkGet(t *testing.T, s store.Store, tenant, id string) models.Task {
	t.Helper()
	task, err := s.Get(context.Background(), tenant, id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	return task
}

// wkEventCount counts a task's events of the given types.
func wkEventCount(t *testing.T, s store.Store, tenant, id string, types ...models.EventType) int {
	t.Helper()
	evs, err := s.Events(context.Background(), tenant, id, 0, models.MaxPageSize)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		for _, typ := range types {
			if e.Type == typ {
				n++
			}
		}
	}
	return n
}

// wkFinalEvents are the event types of a finalization.
var wkFinalEvents = []models.EventType{models.EventCompleted, models.EventTimedOut, models.EventCancelled}

// wkLogs collects the workers' logs, so a test can check that no payload reaches them; they
// are printed when the test fails.
type wkLogs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *wkLogs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *wkLogs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func wkLogger(t *testing.T) (*slog.Logger, *wkLogs) {
	logs := &wkLogs{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("worker logs:\n%s", logs.String())
		}
	})
	return slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), logs
}

// wkRuntime is a workflow engine behind httptest: it verifies every stimulus's signature,
// fails the first FailFirst stimuli with 503, acknowledges the rest with 202 and resumes each
// operation once (deduplicating on the Idempotency-Key), removing the bookmark a moment later
// through its own "engine" goroutine, as a real runtime calling bookmarks/removed would.
type wkRuntime struct {
	t         *testing.T
	secret    string
	failFirst int64
	remove    func(tenant, bookmarkID string) // the engine's bookmark removal
	server    *httptest.Server

	received atomic.Int64
	mu       sync.Mutex
	byKey    map[string]*wkDelivery
	badSigs  int
	removals chan [2]string
	engine   sync.WaitGroup
}

// wkDelivery is what the runtime saw of one operation.
type wkDelivery struct {
	Deliveries int
	Acked      int
	Resumed    int
	Stimulus   workflow.Stimulus
	Keys       map[string]bool
}

func newWKRuntime(t *testing.T, secret string, failFirst int, remove func(tenant, bookmarkID string)) *wkRuntime {
	r := &wkRuntime{t: t, secret: secret, failFirst: int64(failFirst), remove: remove,
		byKey: map[string]*wkDelivery{}, removals: make(chan [2]string, 1024)}
	r.server = httptest.NewServer(http.HandlerFunc(r.serve))
	r.engine.Go(func() {
		for rm := range r.removals {
			r.remove(rm[0], rm[1])
		}
	})
	// Registered after the stores were opened, so this runs before they close.
	t.Cleanup(func() {
		r.server.Close()
		close(r.removals)
		r.engine.Wait()
	})
	return r
}

func (r *wkRuntime) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/user-task-stimuli" {
		http.NotFound(w, req)
		return
	}
	body, _ := io.ReadAll(req.Body)
	if !workflow.VerifySignature([]byte(r.secret), body, req.Header.Get(workflow.SignatureHeader)) {
		r.mu.Lock()
		r.badSigs++
		r.mu.Unlock()
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var s workflow.Stimulus
	if err := json.Unmarshal(body, &s); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	n := r.received.Add(1)
	r.mu.Lock()
	d := r.byKey[s.OperationID]
	if d == nil {
		d = &wkDelivery{Keys: map[string]bool{}}
		r.byKey[s.OperationID] = d
	}
	d.Deliveries++
	d.Keys[req.Header.Get(workflow.IdempotencyKeyHeader)] = true
	d.Stimulus = s
	if n <= r.failFirst {
		r.mu.Unlock()
		http.Error(w, "secret internals of the engine", http.StatusServiceUnavailable)
		return
	}
	d.Acked++
	resume := d.Resumed == 0
	if resume {
		d.Resumed++
	}
	r.mu.Unlock()
	if resume {
		r.removals <- [2]string{s.Tenant, s.BookmarkID}
	}
	w.WriteHeader(http.StatusAccepted)
}

// deliveries returns a copy of what the runtime saw, by operation id.
func (r *wkRuntime) deliveries() map[string]wkDelivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]wkDelivery, len(r.byKey))
	for k, v := range r.byKey {
		out[k] = *v
	}
	return out
}

func (r *wkRuntime) client(t *testing.T) *workflow.HTTPRuntime {
	t.Helper()
	c, err := workflow.NewHTTPRuntime(r.server.URL, r.secret, workflow.HTTPRuntimeOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wkRemover finalizes a removed bookmark's task, as POST bookmarks/removed does.
func wkRemover(t *testing.T, s store.Store) func(tenant, bookmarkID string) {
	f := workflow.NewFinalizer(s)
	return func(tenant, bookmarkID string) {
		if _, _, err := f.Removed(context.Background(), tenant, []string{bookmarkID}); err != nil {
			t.Errorf("engine: remove bookmark: %v", err)
		}
	}
}

// wkEventually polls cond until it holds or the deadline passes.
func wkEventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func wkKey(taskID, opID string) string { return fmt.Sprintf("%s:%s", taskID, opID) }

// wkSQL is s as the SQL store, for a fixture written in SQL.
func wkSQL(t *testing.T, s store.Store) *repository.Store {
	t.Helper()
	sql, ok := s.(*repository.Store)
	if !ok {
		t.Fatalf("the store is a %T, not the SQL store", s)
	}
	return sql
}
