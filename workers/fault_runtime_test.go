package workers_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// Workflow runtime faults (issue 14, docs/reliability.md "Faults"): the runtime behind a front
// the test controls is refused, answers 500, answers a proxy's bare HTML 404 or hangs past the
// client's timeout, round after round on the fake clock; then it returns.

// Modes of wkFaultFront.
const (
	wkFaultUp       = "up"        // the runtime answers
	wkFaultRefused  = "refused"   // nothing listens: connection refused
	wkFault500      = "500"       // the runtime fails
	wkFaultProxy404 = "proxy-404" // a proxy in front answers an HTML 404 to everything
	wkFaultSlow     = "slow"      // no answer within the client's timeout
)

// wkFaultFront is what stands between the workers and the runtime: a TCP proxy (cut for
// "refused") in front of an HTTP front that answers per mode or passes the request to the
// runtime: stimuli to the engine, bookmark GETs to the bookmark runtime.
type wkFaultFront struct {
	mode      atomic.Pointer[string]
	engine    *wkRuntime
	bookmarks *wkBookmarkRuntime
	proxy     *testfactory.TCPProxy
}

func newWKFaultFront(t *testing.T, engine *wkRuntime, bookmarks *wkBookmarkRuntime) *wkFaultFront {
	f := &wkFaultFront{engine: engine, bookmarks: bookmarks}
	up := wkFaultUp
	f.mode.Store(&up)
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.proxy = testfactory.NewTCPProxy(t, strings.TrimPrefix(srv.URL, "http://"))
	return f
}

func (f *wkFaultFront) set(mode string) {
	if old := *f.mode.Swap(&mode); old == wkFaultRefused && mode != wkFaultRefused {
		f.proxy.Restore()
	}
	if mode == wkFaultRefused {
		f.proxy.Cut()
	}
}

// client is the runtime client of the workers, with a short timeout standing in for 30 s.
func (f *wkFaultFront) client(t *testing.T) *workflow.HTTPRuntime {
	t.Helper()
	c, err := workflow.NewHTTPRuntime("http://"+f.proxy.Addr(), f.engine.secret, workflow.HTTPRuntimeOptions{Timeout: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *wkFaultFront) serve(w http.ResponseWriter, req *http.Request) {
	switch *f.mode.Load() {
	case wkFault500:
		http.Error(w, "engine internals", http.StatusInternalServerError)
	case wkFaultProxy404:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<html><body><h1>404 Not Found</h1>nginx</body></html>")
	case wkFaultSlow:
		select {
		case <-req.Context().Done():
		case <-time.After(5 * time.Second):
		}
	default:
		if strings.HasPrefix(req.URL.Path, "/user-task-bookmarks") {
			f.bookmarks.serve(w, req)
			return
		}
		f.engine.serve(w, req)
	}
}

// TestFaultRuntimeUnavailable: with the runtime refused, failing, hidden behind a proxy's 404s or
// hanging, every delivery fails with its code and is retried on a doubling schedule, the
// transitional tasks get resume-delivery-failing once the threshold is reached, reconciliation
// finalizes nothing, and no task changes status. When the runtime returns, each stimulus is
// delivered, each task finalizes exactly once, and the findings go.
func TestFaultRuntimeUnavailable(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		ctx := t.Context()
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		log, logs := wkLogger(t)
		bookmarks := newWKBookmarkRuntime(t, "")
		remover := wkRemover(t, s)
		engine := newWKRuntime(t, bookmarks.secret, 0, func(tenant, bookmarkID string) {
			bookmarks.mu.Lock()
			delete(bookmarks.committed[tenant], bookmarkID)
			bookmarks.mu.Unlock()
			remover(tenant, bookmarkID)
		})
		front := newWKFaultFront(t, engine, bookmarks)

		// Three decisions waiting for the runtime and two open tasks it still has.
		var transitional, open []models.Task
		var ops []models.Operation
		for i := range 3 {
			task := wkProject(t, s, wkTaskOpts{})
			if i == 2 {
				ops = append(ops, wkCancel(t, s, task, "no longer needed"))
			} else {
				ops = append(ops, wkComplete(t, s, task, wkPayload))
			}
			transitional = append(transitional, wkGet(t, s, "t1", task.ID))
		}
		for range 2 {
			open = append(open, wkProject(t, s, wkTaskOpts{}))
		}
		for _, task := range append(append([]models.Task{}, transitional...), open...) {
			bookmarks.commitTask(task)
		}

		const threshold = 3
		d := workers.NewDispatcher(s, front.client(t), workers.DispatcherOptions{
			FailureThreshold: threshold, Logger: log,
			Backoff: workers.Backoff{Min: time.Second, Max: time.Hour, Jitter: func(n int64) int64 { return n - 1 }},
		})
		r := workers.NewReconciler(s, front.client(t), nil, workers.ReconcilerOptions{Logger: log, SkipTouchedWithin: time.Millisecond, MaxRemembered: 1})

		faults := []struct{ mode, code string }{
			{wkFaultRefused, "connect"}, {wkFault500, "http-500"}, {wkFaultProxy404, "http-404"},
			{wkFaultSlow, "timeout"}, {wkFaultSlow, "timeout"}, {wkFaultProxy404, "http-404"},
		}
		for i, f := range faults {
			attempt := i + 1
			front.set(f.mode)
			res, err := d.RunOnce(ctx)
			if err != nil || res.Claimed != 3 || res.Failed != 3 {
				t.Fatalf("%s, attempt %d: %+v, %v; want 3 rows claimed and failed", f.mode, attempt, res.DispatchCounts, err)
			}
			wantDelay := time.Second << (attempt - 1)
			for _, task := range transitional {
				rows, err := s.Resumptions(ctx, "t1", task.ID)
				if err != nil || len(rows) != 1 {
					t.Fatalf("%s: outbox %+v, %v", f.mode, rows, err)
				}
				row := rows[0]
				if row.State != models.DeliveryPending || row.Attempts != attempt || row.LastError != f.code || row.AvailableAt.Sub(row.UpdatedAt) != wantDelay {
					t.Fatalf("%s, attempt %d: row %s, attempts %d, error %q, delay %v; want pending, %d, %q, %v", f.mode, attempt,
						row.State, row.Attempts, row.LastError, row.AvailableAt.Sub(row.UpdatedAt), attempt, f.code, wantDelay)
				}
				got := wkGet(t, s, "t1", task.ID)
				if got.Status != task.Status || wkEventCount(t, s, "t1", task.ID, wkFinalEvents...) != 0 {
					t.Fatalf("%s: task %s is %s, want still %s", f.mode, task.ID, got.Status, task.Status)
				}
				if failing := got.Health.Code == models.HealthResumeDeliveryFailing; failing != (attempt >= threshold) {
					t.Fatalf("%s, attempt %d: health %+v; resume-delivery-failing from attempt %d", f.mode, attempt, got.Health, threshold)
				}
			}
			if res, _ := d.RunOnce(ctx); res.Claimed != 0 {
				t.Fatalf("%s: a row was claimed again before its delay", f.mode)
			}

			// Reconciliation: the listing fails, or every lookup is unclear; nothing is closed.
			if _, err := r.RunOnce(ctx); err == nil && f.mode != wkFaultUp {
				t.Fatalf("%s: reconciliation ran without an error", f.mode)
			}
			for _, task := range append(append([]models.Task{}, transitional...), open...) {
				if got := wkGet(t, s, "t1", task.ID); got.Status != task.Status {
					t.Fatalf("%s: reconciliation moved task %s to %s", f.mode, task.ID, got.Status)
				}
			}
			clock.Advance(wantDelay)
		}
		if engine.received.Load() != 0 {
			t.Fatalf("the runtime received %d stimuli through the faults", engine.received.Load())
		}

		// The runtime returns: every stimulus is delivered once and each task finalizes once.
		front.set(wkFaultUp)
		res, err := d.RunOnce(ctx)
		if err != nil || res.Delivered != 3 {
			t.Fatalf("recovery: %+v, %v; want 3 deliveries", res.DispatchCounts, err)
		}
		wkEventually(t, 10*time.Second, "every transitional task to finalize", func() bool {
			for _, task := range transitional {
				if !wkGet(t, s, "t1", task.ID).Status.IsTerminal() {
					return false
				}
			}
			return true
		})
		seen := engine.deliveries()
		for i, task := range transitional {
			got, op := wkGet(t, s, "t1", task.ID), ops[i]
			if n := wkEventCount(t, s, "t1", task.ID, wkFinalEvents...); n != 1 {
				t.Fatalf("task %s has %d final events, want 1", task.ID, n)
			}
			want := map[models.OperationKind]models.Status{models.OpComplete: models.StatusCompleted, models.OpCancel: models.StatusCancelled}[op.Kind]
			if got.Status != want {
				t.Fatalf("task %s is %s, want %s", task.ID, got.Status, want)
			}
			dl := seen[op.OperationID]
			if dl.Acked != 1 || dl.Resumed != 1 || !dl.Keys[wkKey(task.ID, op.OperationID)] || len(dl.Keys) != 1 {
				t.Fatalf("operation %s: %+v; want acknowledged and resumed once under its key", op.OperationID, dl)
			}
		}
		if len(seen) != len(transitional) {
			t.Fatalf("the runtime saw %d operations, want %d", len(seen), len(transitional))
		}
		if res, _ := d.RunOnce(ctx); res.Claimed != 0 {
			t.Fatalf("after recovery the outbox still holds %d rows", res.Claimed)
		}

		// Reconciliation agrees again: the open tasks stay, their findings go.
		clock.Advance(time.Minute)
		run, err := r.RunOnce(ctx)
		if err != nil || run.Totals != (workers.ReconcileCounts{}) {
			t.Fatalf("reconciliation after recovery: %+v, %v; want nothing to do", run.Totals, err)
		}
		for _, task := range open {
			if got := wkGet(t, s, "t1", task.ID); got.Status != models.StatusAssigned || got.Health != (models.Health{}) {
				t.Fatalf("open task %s with health %+v, want assigned and healthy", got.Status, got.Health)
			}
		}
		for _, secret := range []string{"engine internals", "nginx", "PAYLOAD-7f3a"} {
			if strings.Contains(logs.String(), secret) {
				t.Fatalf("the logs carry %q", secret)
			}
		}
	})
}
