package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/metrics"
	"usertasks/metrics/metricstest"
	"usertasks/models"
)

func TestCommandOutcome(t *testing.T) {
	for _, c := range []struct {
		replayed bool
		err      error
		want     string
	}{
		{false, nil, "applied"},
		{true, nil, "replayed"},
		{false, models.Conflict(models.CodeRevisionConflict), "conflict"},
		{false, fmt.Errorf("wrapped: %w", models.Conflict(models.CodeNotClaimable)), "conflict"},
		{false, models.InvalidField("reason", "required"), "invalid"},
		{false, models.ErrForbidden, "forbidden"},
		{false, models.ErrNotFound, "not-found"},
		{false, models.ErrBusy, "busy"},
		{false, &models.CorruptError{TaskID: "x"}, "corrupt"},
		{false, errors.New("boom"), "error"},
	} {
		if got := metrics.CommandOutcome(c.replayed, c.err); got != c.want {
			t.Errorf("CommandOutcome(%v, %v) = %q, want %q", c.replayed, c.err, got, c.want)
		}
	}
}

func TestScrape(t *testing.T) {
	m := metrics.New()
	m.ObserveRequest("GET", "/api/v1/user-tasks/:id", 200, 30*time.Millisecond)
	m.ObserveRequest("GET", "/api/v1/user-tasks/:id", 404, time.Millisecond)
	m.ObserveRequest("BREW", "", 405, time.Millisecond)
	m.Command(models.OpClaim, false, nil)
	m.Command(models.OpClaim, true, nil)
	m.Command(models.OpClaim, false, models.Conflict(models.CodeRevisionConflict))
	m.WorkerRun("due-sweep", "ok", 20*time.Millisecond)
	var subscribers atomic.Int64
	subscribers.Store(3)
	m.WatchSubscribers(func() int { return int(subscribers.Load()) })

	f := metricstest.Scrape(t, m.Handler(), nil)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"usertasks_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/api/v1/user-tasks/:id", "status": "2xx"}, 1},
		{"usertasks_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/api/v1/user-tasks/:id", "status": "4xx"}, 1},
		{"usertasks_http_request_duration_seconds", map[string]string{"method": "other", "route": "unmatched", "status": "4xx"}, 1},
		{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "applied"}, 1},
		{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "replayed"}, 1},
		{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "conflict"}, 1},
		{"usertasks_conflicts_total", map[string]string{"kind": "claim", "code": "revision-conflict"}, 1},
		{"usertasks_worker_run_duration_seconds", map[string]string{"worker": "due-sweep", "outcome": "ok"}, 1},
		{"usertasks_live_subscribers", nil, 3},
	} {
		if got := f.Value(t, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if _, ok := f["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}
}

// fakeBacklog counts its reads and can fail.
type fakeBacklog struct {
	reads atomic.Int64
	fail  atomic.Bool
	b     models.Backlog
}

func (f *fakeBacklog) Backlog(context.Context) (models.Backlog, error) {
	f.reads.Add(1)
	if f.fail.Load() {
		return models.Backlog{}, models.ErrBusy
	}
	return f.b, nil
}

func TestBacklog(t *testing.T) {
	now := time.Now()
	src := &fakeBacklog{b: models.Backlog{ResumptionsPending: 4, OldestResumptionDue: now.Add(-90 * time.Second), Now: now,
		DeliveriesPending: 2, DeliveriesRetrying: 1, DeliveriesAbandoned: 5}}

	t.Run("OK", func(t *testing.T) {
		m := metrics.New()
		m.WatchBacklog(src, time.Hour, nil)
		f := metricstest.Scrape(t, m.Handler(), nil)
		if got := f.Value(t, "usertasks_resumption_outbox_pending", nil); got != 4 {
			t.Errorf("pending = %v", got)
		}
		if got := f.Value(t, "usertasks_resumption_outbox_oldest_pending_seconds", nil); got < 90 || got > 120 {
			t.Errorf("oldest = %v", got)
		}
		for state, want := range map[string]float64{"pending": 2, "retrying": 1, "abandoned": 5} {
			if got := f.Value(t, "usertasks_invitation_deliveries", map[string]string{"state": state}); got != want {
				t.Errorf("deliveries %s = %v, want %v", state, got, want)
			}
		}
		if got := f.Value(t, "usertasks_backlog_read_up", nil); got != 1 {
			t.Errorf("up = %v", got)
		}
	})
	t.Run("ScrapeStormReadsOnce", func(t *testing.T) {
		src.reads.Store(0)
		m := metrics.New()
		m.WatchBacklog(src, time.Hour, nil)
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() { metricstest.Scrape(t, m.Handler(), nil) })
		}
		wg.Wait()
		if got := src.reads.Load(); got != 1 {
			t.Fatalf("%d backlog reads for 20 scrapes, want 1", got)
		}
	})
	t.Run("DatabaseDown", func(t *testing.T) {
		src.fail.Store(true)
		defer src.fail.Store(false)
		m := metrics.New()
		m.WatchBacklog(src, time.Hour, nil)
		f := metricstest.Scrape(t, m.Handler(), nil)
		if got := f.Value(t, "usertasks_backlog_read_up", nil); got != 0 {
			t.Errorf("up = %v, want 0", got)
		}
		if s := f.Series("usertasks_resumption_outbox_pending", nil); len(s) != 0 {
			t.Errorf("stale pending count exported while the read fails")
		}
	})
}
