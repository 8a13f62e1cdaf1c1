package seed_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/stress/seed"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// recordingRuntime hands each stimulus to the loopback (which finalizes its task) and keeps it.
type recordingRuntime struct {
	*workflow.Loopback
	mu      sync.Mutex
	stimuli []workflow.Stimulus
}

func (r *recordingRuntime) Deliver(ctx context.Context, s workflow.Stimulus) error {
	r.mu.Lock()
	r.stimuli = append(r.stimuli, s)
	r.mu.Unlock()
	return r.Loopback.Deliver(ctx, s)
}

// TestSeededDataDelivers starts the workers on a seeded tenant, as a server started on it
// does. The due sweep has nothing to do; the dispatcher delivers every pending resumption builds its stimulus (the accepted operation's action key,
// completer and sealed completion data, opened with the server's key ring) and the loopback
// finalizes its task, with no delivery failing (corrupt-store before issue 27), and the
// finalized store audits clean.
func TestSeededDataDelivers(t *testing.T) {
	testfactory.EachSQL(t, &testfactory.StoreOpts{TotalCap: 10_000}, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		db, err := s.DB()
		if err != nil {
			t.Fatal(err)
		}
		// 2,000 open tasks hold about 40 transitional ones of each kind.
		results, err := seed.Load(ctx, db, s.Dialect(), seed.Options{Keys: testfactory.Keys(),
			Tenants: []seed.Tenant{{Name: "busy", Open: 2000, Terminal: 100}}, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		res := results[0]
		for _, st := range models.TransitionalStatuses {
			if res.ByStatus[st] == 0 {
				t.Fatalf("no %s task seeded (%v): pick another seed", st, res.ByStatus)
			}
		}
		auditClean(t, s)

		// The due sweep finds the overdue tasks flagged already, with their timeout disabled:
		// nothing to time out or flag (a storm of timeouts before issue 27).
		sweep, err := workers.NewDueSweeper(s, workers.SweepOptions{}).RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Overdue == 0 || sweep.TimedOut != 0 || sweep.Overdue != 0 || sweep.Skipped != 0 {
			t.Fatalf("due sweep on seeded data: %+v with %d overdue tasks seeded; want nothing to do", sweep.SweepCounts, res.Overdue)
		}

		var logs bytes.Buffer
		rt := &recordingRuntime{Loopback: workflow.NewLoopback(s)}
		d := workers.NewDispatcher(s, rt, workers.DispatcherOptions{BatchSize: 100, LeaseFor: time.Minute,
			Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
		var sum workers.DispatchCounts
		for {
			r, err := d.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sum.Claimed, sum.Delivered, sum.Failed, sum.Skipped = sum.Claimed+r.Claimed, sum.Delivered+r.Delivered, sum.Failed+r.Failed, sum.Skipped+r.Skipped
			if r.Claimed == 0 || r.Failed > 0 {
				break
			}
		}
		if sum.Failed != 0 || sum.Delivered != res.Backlog || strings.Contains(logs.String(), "corrupt") {
			t.Fatalf("dispatcher on seeded data: %+v for %d pending resumptions; log:\n%s", sum, res.Backlog, logs.String())
		}
		completions := 0
		for _, st := range rt.stimuli {
			if st.ActionKey != models.ActionComplete {
				continue
			}
			completions++
			if st.CompletedBy == nil || !bytes.Contains(st.Data, []byte(`"approved":true`)) {
				t.Fatalf("completion stimulus %+v: want its completer and the sealed decision", st)
			}
		}
		if completions != res.ByStatus[models.StatusCompleting] {
			t.Errorf("%d completion stimuli, want %d", completions, res.ByStatus[models.StatusCompleting])
		}
		counts, err := s.DashboardCounts(ctx, "busy", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range models.TransitionalStatuses {
			if n := counts.ByStatus[st]; n != 0 {
				t.Errorf("%d tasks still %s after the deliveries", n, st)
			}
		}
		auditClean(t, s)
	})
}
