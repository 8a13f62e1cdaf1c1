package workers_test

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

const wkPayload = `{"comment":"PAYLOAD-7f3a","decision":"reject"}`

// Every completed, timed-out and cancelled task ends terminal with exactly one acknowledged
// stimulus per operation, although the runtime refuses the first five; retries carry the same
// idempotency key; the runtime verifies every signature; overdue tasks are flagged once.
func TestDispatchDeliversEveryTransition(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		s := db.open(t, nil)
		log, logs := wkLogger(t)
		rt := newWKRuntime(t, "runtime-secret", 5, wkRemover(t, s))
		now, err := s.Now(ctx)
		if err != nil {
			t.Fatal(err)
		}
		past := now.Add(-time.Minute)

		type expectation struct {
			task   models.Task
			status models.Status
			op     *models.Operation // nil for timeouts: minted by the sweep
		}
		var want []expectation
		for range 4 {
			task := wkProject(t, s, wkTaskOpts{})
			op := wkComplete(t, s, task, wkPayload)
			want = append(want, expectation{task, models.StatusCompleted, &op})
		}
		for range 3 {
			want = append(want, expectation{wkProject(t, s, wkTaskOpts{DueAt: &past, Timeout: true}), models.StatusTimedOut, nil})
		}
		for range 3 {
			task := wkProject(t, s, wkTaskOpts{NoForm: true})
			op := wkCancel(t, s, task, "duplicate invoice")
			want = append(want, expectation{task, models.StatusCancelled, &op})
		}
		overdue := []models.Task{wkProject(t, s, wkTaskOpts{DueAt: &past}), wkProject(t, s, wkTaskOpts{DueAt: &past})}
		untouched := wkProject(t, s, wkTaskOpts{})

		sweeper := workers.NewDueSweeper(s, workers.SweepOptions{Logger: log})
		res, err := sweeper.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.TimedOut != 3 || res.Overdue != 2 {
			t.Fatalf("sweep %+v, want 3 timed out and 2 overdue", res)
		}
		if res, err := sweeper.RunOnce(ctx); err != nil || res.TimedOut+res.Overdue != 0 {
			t.Fatalf("second sweep %+v, %v; want nothing to do", res, err)
		}

		d := workers.NewDispatcher(s, rt.client(t), workers.DispatcherOptions{
			Backoff: workers.Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}, Parallel: 4, Logger: log,
		})
		wkEventually(t, 30*time.Second, "every transition to finish", func() bool {
			if _, err := d.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			for _, w := range want {
				if !wkGet(t, s, "t1", w.task.ID).Status.IsTerminal() {
					return false
				}
			}
			return true
		})

		got := rt.deliveries()
		total := 0
		for _, w := range want {
			task := wkGet(t, s, "t1", w.task.ID)
			if task.Status != w.status {
				t.Errorf("task %s is %s, want %s", task.ID, task.Status, w.status)
			}
			if n := wkEventCount(t, s, "t1", task.ID, wkFinalEvents...); n != 1 {
				t.Errorf("task %s finalized %d times", task.ID, n)
			}
			rows, err := s.Resumptions(ctx, "t1", task.ID)
			if err != nil || len(rows) != 1 || rows[0].State == models.DeliveryPending {
				t.Fatalf("task %s outbox %+v, %v; want one row, not pending", task.ID, rows, err)
			}
			opID := rows[0].OperationID
			g, ok := got[opID]
			if !ok {
				t.Fatalf("operation %s of task %s never reached the runtime", opID, task.ID)
			}
			total += g.Deliveries
			if g.Acked != 1 || g.Resumed != 1 {
				t.Errorf("operation %s acknowledged %d times, resumed %d times; want 1 and 1", opID, g.Acked, g.Resumed)
			}
			if len(g.Keys) != 1 || !g.Keys[wkKey(task.ID, opID)] {
				t.Errorf("operation %s came with keys %v, want only %s", opID, g.Keys, wkKey(task.ID, opID))
			}
			st := g.Stimulus
			if st.Tenant != "t1" || st.TaskID != task.ID || st.BookmarkID != task.Workflow.BookmarkID || st.WorkflowInstanceID != task.Workflow.InstanceID {
				t.Errorf("stimulus names %+v", st)
			}
			switch w.status {
			case models.StatusCompleted:
				if st.ActionKey != models.ActionComplete || string(st.Data) != wkPayload || st.CompletedBy == nil || st.CompletedBy.ID != "ann" ||
					!st.CompletedAt.Equal(w.op.CreatedAt) || st.Reason != "" {
					t.Errorf("completion stimulus %+v (data %s)", st, st.Data)
				}
			case models.StatusTimedOut:
				if st.ActionKey != models.ActionTimeout || st.CompletedBy != nil || st.Data != nil || st.CompletedAt.IsZero() {
					t.Errorf("timeout stimulus %+v", st)
				}
			case models.StatusCancelled:
				if st.ActionKey != models.ActionCancelled || st.Reason != "duplicate invoice" || st.CompletedBy == nil || st.CompletedBy.ID != "boss" || st.Data != nil {
					t.Errorf("cancel stimulus %+v", st)
				}
			}
		}
		if total != len(want)+5 {
			t.Errorf("the runtime received %d stimuli, want %d (each once, plus the 5 it refused)", total, len(want)+5)
		}
		if rt.badSigs != 0 {
			t.Errorf("%d stimuli failed the signature check", rt.badSigs)
		}
		for _, o := range overdue {
			task := wkGet(t, s, "t1", o.ID)
			if !task.IsOverdue || task.Status != models.StatusAssigned || wkEventCount(t, s, "t1", o.ID, models.EventOverdue) != 1 {
				t.Errorf("overdue task %s: overdue %v, status %s, %d overdue events", o.ID, task.IsOverdue, task.Status, wkEventCount(t, s, "t1", o.ID, models.EventOverdue))
			}
		}
		if task := wkGet(t, s, "t1", untouched.ID); task.Revision != untouched.Revision {
			t.Errorf("an open task without a due date changed")
		}
		if out := logs.String(); strings.Contains(out, "PAYLOAD-7f3a") || strings.Contains(out, "secret internals") {
			t.Errorf("a payload or the runtime's answer reached the logs")
		}
		if !strings.Contains(logs.String(), "code=http-503") {
			t.Errorf("the refusals were not logged with their code")
		}
	})
}

func TestDispatchBackoffGrows(t *testing.T) {
	highest := workers.Backoff{Min: time.Second, Max: time.Hour, Jitter: func(n int64) int64 { return n - 1 }}
	lowest := workers.Backoff{Min: time.Second, Max: time.Hour, Jitter: func(int64) int64 { return 0 }}
	prev := time.Duration(0)
	for attempt := 1; attempt <= 30; attempt++ {
		want := min(time.Second<<(attempt-1), time.Hour)
		if attempt > 20 {
			want = time.Hour
		}
		if got := highest.Delay(attempt); got != want || got < prev {
			t.Fatalf("attempt %d: highest delay %v, want %v (after %v)", attempt, got, want, prev)
		}
		prev = want
		if got := lowest.Delay(attempt); got != time.Second {
			t.Fatalf("attempt %d: lowest delay %v, want 1s", attempt, got)
		}
	}
	t.Run("FullJitterStaysWithinTheCeiling", func(t *testing.T) {
		b := workers.DefaultBackoff
		seen := map[time.Duration]bool{}
		for range 500 {
			d := b.Delay(5)
			if d < time.Second || d > 16*time.Second {
				t.Fatalf("delay %v outside [1s, 16s]", d)
			}
			seen[d.Round(time.Second)] = true
		}
		if len(seen) < 5 {
			t.Fatalf("delays barely vary: %v", seen)
		}
	})
}

// A failing runtime: each retry waits twice as long (pinned jitter), the attempt count reaches
// the threshold and the task gets resume-delivery-failing; the first success clears it.
func TestDispatchHealthAfterFailureThreshold(t *testing.T) {
	ctx := t.Context()
	clock := &testfactory.Clock{}
	s := wkSQLite(t).open(t, clock)
	log, _ := wkLogger(t)
	rt := newWKFakeRuntime()
	rt.setFailure(&workflow.RuntimeError{Code: "http-503", Status: 503})
	task := wkProject(t, s, wkTaskOpts{})
	wkComplete(t, s, task, wkPayload)
	d := workers.NewDispatcher(s, rt, workers.DispatcherOptions{
		FailureThreshold: 3, Logger: log,
		Backoff: workers.Backoff{Min: time.Second, Max: time.Hour, Jitter: func(n int64) int64 { return n - 1 }},
	})

	for attempt := 1; attempt <= 5; attempt++ {
		res, err := d.RunOnce(ctx)
		if err != nil || res.Failed != 1 {
			t.Fatalf("attempt %d: %+v, %v; want one failure", attempt, res, err)
		}
		rows, _ := s.Resumptions(ctx, "t1", task.ID)
		r := rows[0]
		wantDelay := time.Second << (attempt - 1)
		if r.Attempts != attempt || r.LastError != "http-503" || r.AvailableAt.Sub(r.UpdatedAt) != wantDelay {
			t.Fatalf("attempt %d: row attempts %d, error %q, delay %v; want %d, http-503, %v",
				attempt, r.Attempts, r.LastError, r.AvailableAt.Sub(r.UpdatedAt), attempt, wantDelay)
		}
		if res, _ := d.RunOnce(ctx); res.Claimed != 0 {
			t.Fatalf("attempt %d: the row was claimed again before its delay", attempt)
		}
		h := wkGet(t, s, "t1", task.ID).Health
		if attempt < 3 && h.Code != "" {
			t.Fatalf("attempt %d: health %+v before the threshold", attempt, h)
		}
		if attempt >= 3 && (h.Code != models.HealthResumeDeliveryFailing || h.Severity != models.SeverityAdvisory) {
			t.Fatalf("attempt %d: health %+v, want advisory resume-delivery-failing", attempt, h)
		}
		clock.Advance(wantDelay)
	}

	rt.setFailure(nil)
	if res, err := d.RunOnce(ctx); err != nil || res.Delivered != 1 {
		t.Fatalf("recovery: %+v, %v; want one delivery", res, err)
	}
	if h := wkGet(t, s, "t1", task.ID).Health; h != (models.Health{}) {
		t.Fatalf("health %+v after a delivery, want none", h)
	}
	rows, _ := s.Resumptions(ctx, "t1", task.ID)
	if rows[0].State != models.DeliveryDelivered {
		t.Fatalf("row %s after the delivery, want delivered", rows[0].State)
	}
	if n := len(rt.stimuli()); n != 1 {
		t.Fatalf("runtime accepted %d stimuli, want 1", n)
	}
}

// A row whose task closed meanwhile is settled, never delivered.
func TestDispatchSettlesRowsOfClosedTasks(t *testing.T) {
	ctx := t.Context()
	db := wkSQLite(t)
	s := db.open(t, nil)
	rt := newWKFakeRuntime()
	task := wkProject(t, s, wkTaskOpts{})
	wkComplete(t, s, task, "")
	if _, _, err := workflow.NewFinalizer(s).Removed(ctx, "t1", []string{task.Workflow.BookmarkID}); err != nil {
		t.Fatal(err)
	}
	wkExec(t, s, "UPDATE user_task_resumptions SET state = 'pending' WHERE task_id = ?", task.ID)
	log, _ := wkLogger(t)
	res, err := workers.NewDispatcher(s, rt, workers.DispatcherOptions{Logger: log}).RunOnce(ctx)
	if err != nil || res.Claimed != 1 || res.Skipped != 1 {
		t.Fatalf("run %+v, %v; want one row claimed and skipped", res, err)
	}
	rows, _ := s.Resumptions(ctx, "t1", task.ID)
	if rows[0].State != models.DeliverySettled || len(rt.stimuli()) != 0 {
		t.Fatalf("row %s, %d stimuli; want settled and none", rows[0].State, len(rt.stimuli()))
	}
}

// A dispatcher stopped mid-delivery gives its rows back without counting an attempt.
func TestDispatchShutdownGivesRowsBack(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	task := wkProject(t, s, wkTaskOpts{})
	wkComplete(t, s, task, "")
	ctx, cancel := context.WithCancel(t.Context())
	blocking := &wkBlockingRuntime{started: make(chan struct{})}
	log, _ := wkLogger(t)
	d := workers.NewDispatcher(s, blocking, workers.DispatcherOptions{Logger: log})
	go func() { <-blocking.started; cancel() }()
	res, err := d.RunOnce(ctx)
	if err != nil || res.Skipped != 1 {
		t.Fatalf("run %+v, %v; want the row skipped", res, err)
	}
	rows, _ := s.Resumptions(t.Context(), "t1", task.ID)
	if r := rows[0]; r.State != models.DeliveryPending || r.Attempts != 0 || r.Lease != nil {
		t.Fatalf("row %+v, want pending, no attempt, no lease", r)
	}
}

// wkBlockingRuntime blocks every delivery until its context ends.
type wkBlockingRuntime struct {
	wkFakeRuntime
	started chan struct{}
	once    sync.Once
}

func (b *wkBlockingRuntime) Deliver(ctx context.Context, _ workflow.Stimulus) error {
	b.once.Do(func() { close(b.started) })
	<-ctx.Done()
	return &workflow.RuntimeError{Code: "cancelled"}
}

// wkFakeRuntime is an in-memory runtime: committed bookmarks per tenant, accepted stimuli, and
// a switchable failure.
type wkFakeRuntime struct {
	mu        sync.Mutex
	fail      error
	bookmarks map[string]map[string]json.RawMessage
	accepted  []workflow.Stimulus
	gets      int
}

func newWKFakeRuntime() *wkFakeRuntime {
	return &wkFakeRuntime{bookmarks: map[string]map[string]json.RawMessage{}}
}

func (f *wkFakeRuntime) setFailure(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = err
}

func (f *wkFakeRuntime) stimuli() []workflow.Stimulus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.accepted)
}

// commit records a committed bookmark with its projection body.
func (f *wkFakeRuntime) commit(tenant, bookmarkID string, body json.RawMessage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.bookmarks[tenant] == nil {
		f.bookmarks[tenant] = map[string]json.RawMessage{}
	}
	f.bookmarks[tenant][bookmarkID] = body
}

// commitTask records the bookmark of an existing task.
func (f *wkFakeRuntime) commitTask(t models.Task) {
	body, _ := json.Marshal(map[string]any{"bookmarkId": t.Workflow.BookmarkID, "workflowInstanceId": t.Workflow.InstanceID})
	f.commit(t.Tenant, t.Workflow.BookmarkID, body)
}

func (f *wkFakeRuntime) Deliver(_ context.Context, s workflow.Stimulus) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return f.fail
	}
	f.accepted = append(f.accepted, s)
	return nil
}

func (f *wkFakeRuntime) ListBookmarks(_ context.Context, tenant, cursor string, limit int) ([]json.RawMessage, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return nil, "", f.fail
	}
	var ids []string
	for id := range f.bookmarks[tenant] {
		if id > cursor {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	next := ""
	if len(ids) > limit {
		ids = ids[:limit]
		next = ids[limit-1]
	}
	items := make([]json.RawMessage, 0, len(ids))
	for _, id := range ids {
		items = append(items, f.bookmarks[tenant][id])
	}
	return items, next, nil
}

func (f *wkFakeRuntime) GetBookmark(_ context.Context, tenant, bookmarkID string) (bool, json.RawMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gets++
	if f.fail != nil {
		return false, nil, f.fail
	}
	body, ok := f.bookmarks[tenant][bookmarkID]
	return ok, body, nil
}

// wkExec runs raw SQL on the store's database (fixtures the transitions cannot produce).
func wkExec(t *testing.T, s store.Store, q string, args ...any) {
	t.Helper()
	sql := wkSQL(t, s)
	db, err := sql.DB()
	if err != nil {
		t.Fatal(err)
	}
	if sql.Dialect() == migrations.Postgres {
		for i := 1; strings.Contains(q, "?"); i++ {
			q = strings.Replace(q, "?", "$"+string(rune('0'+i)), 1)
		}
	}
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("exec %q: %v", q, err)
	}
}
