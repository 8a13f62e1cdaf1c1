package demo_test

import (
	"context"
	"testing"
	"time"

	"usertasks/demo"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storetest"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// seedWithHistory seeds the demo with its history into a fresh database of provider p and returns the
// store (the serving handle) and how long the seed took.
func seedWithHistory(t *testing.T, p testfactory.Provider) (store.Store, time.Duration) {
	t.Helper()
	url := testfactory.Database(t, p)
	s := testfactory.Open(t, url, nil)
	clock := &demo.Clock{}
	h := &demo.History{Store: testfactory.Open(t, url, &testfactory.StoreOpts{Clock: clock.Now}), Clock: clock}
	start := time.Now()
	if err := demo.SeedWithHistory(context.Background(), s, workflow.NewProjector(s, workflow.NewResolver(demo.ResolverOptions())), h); err != nil {
		t.Fatalf("seed: %v", err)
	}
	return s, time.Since(start)
}

// TestSeedHistoryFillsTheDashboard: after the seed, a manager's dashboard has completions on
// at least 20 of its 30 days, claim and completion percentiles for the workflows, completions
// with a due date both on time and late, tasks timed out (escalated) and cancelled, and every
// day's creations; the history is audit-clean and leaves nothing open or in the outbox. On
// every SQL store (the database clock the history moves is each store's own); the dev server
// seeds no history on the document store (see cmd/web seedDemo).
func TestSeedHistoryFillsTheDashboard(t *testing.T) {
	for _, p := range testfactory.SQLProviders {
		t.Run(p.Name(), func(t *testing.T) { seedHistoryFillsTheDashboard(t, p) })
	}
}

func seedHistoryFillsTheDashboard(t *testing.T, p testfactory.Provider) {
	ctx := context.Background()
	s, took := seedWithHistory(t, p)
	t.Logf("seeded with history in %s", took)
	for _, u := range demo.Users {
		if !u.Manager {
			continue
		}
		o, err := tasks.NewDashboard(s, 0).Overview(ctx, u.Actor())
		if err != nil {
			t.Fatal(err)
		}
		days, created := 0, 0
		for i := range o.Days {
			if o.Completed[i] > 0 {
				days++
			}
			created += o.Created[i]
		}
		want := 20
		if days < want {
			t.Errorf("%s: completions on %d of %d days, want at least %d", u.Tenant, days, len(o.Days), want)
		}
		percentiles, late, onTime := 0, 0, 0
		for _, w := range o.Workflows {
			if w.HasClaim && w.HasComplete {
				percentiles++
			}
			late += w.WithDue - w.OnTime
			onTime += w.OnTime
		}
		if percentiles < 2 {
			t.Errorf("%s: %d workflows with claim and completion percentiles, want several: %+v", u.Tenant, percentiles, o.Workflows)
		}
		if late == 0 || onTime == 0 {
			t.Errorf("%s: %d late and %d on-time completions, want both", u.Tenant, late, onTime)
		}
		if u.Tenant == "acme" && (o.Closed[models.StatusTimedOut] == 0 || o.Closed[models.StatusCancelled] == 0) {
			t.Errorf("acme: closed %v, want timeouts (escalations) and cancellations too", o.Closed)
		}
		if o.Counts.Backlog > 0 || o.Counts.StaleTransitions > 0 {
			t.Errorf("%s: %d resumptions pending, %d stale transitions after the seed", u.Tenant, o.Counts.Backlog, o.Counts.StaleTransitions)
		}
	}
	if _, findings, _ := storetest.AuditAll(t, s, store.AuditFilter{}, 50); len(findings) != 0 {
		t.Fatalf("audit findings after the history: %+v", findings)
	}
	if p == testfactory.SQLite && took > 20*time.Second {
		t.Errorf("the seed took %s; it runs on every first start", took)
	}
}
