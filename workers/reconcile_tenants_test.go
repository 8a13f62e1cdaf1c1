package workers_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"testing"

	"usertasks/workers"
)

// wkListCounter counts the runtime's bookmark listings by tenant: a tenant's reconciliation
// lists its bookmarks once (in one page here), so the count is how often it was visited.
type wkListCounter struct {
	*wkFakeRuntime
	mu     sync.Mutex
	listed map[string]int
}

func (c *wkListCounter) ListBookmarks(ctx context.Context, tenant, cursor string, limit int) ([]json.RawMessage, string, error) {
	c.mu.Lock()
	c.listed[tenant]++
	c.mu.Unlock()
	return c.wkFakeRuntime.ListBookmarks(ctx, tenant, cursor, limit)
}

func (c *wkListCounter) visits() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := maps.Clone(c.listed)
	clear(c.listed)
	return out
}

// A configured tenant without a task (its first projection never arrived) is reconciled, and
// its committed bookmark recreated; a configured tenant the store also knows, or one named
// twice, is visited once a run.
func TestReconcileConfiguredTenants(t *testing.T) {
	ctx := t.Context()
	s := wkSQLite(t).open(t, nil)
	log, _ := wkLogger(t)
	wkProject(t, s, wkTaskOpts{Tenant: "known"})
	wkProject(t, s, wkTaskOpts{Tenant: "other"})
	rt := &wkListCounter{wkFakeRuntime: newWKFakeRuntime(), listed: map[string]int{}}
	const fresh = "fresh/tenant ?#ü"
	rt.commit(fresh, "bm-first", json.RawMessage(`{"bookmarkId":"bm-first","workflowInstanceId":"wf-first","activityInstanceId":"approve","task":{"title":"First"}}`))
	configured := []string{fresh, "known", fresh, ""}
	r := workers.NewReconciler(s, rt, &wkProjector{s: s}, workers.ReconcilerOptions{Logger: log, Tenants: configured})

	run, err := r.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"known": 1, "other": 1, fresh: 1}
	if got := rt.visits(); !maps.Equal(got, want) {
		t.Fatalf("first run visited %v, want %v", got, want)
	}
	if len(run.Tenants) != 3 || run.Tenants[fresh].Recreated != 1 || run.Totals.Recreated != 1 {
		t.Fatalf("first run %+v, want the configured tenant's bookmark recreated", run)
	}
	if !slices.Equal(configured, []string{fresh, "known", fresh, ""}) {
		t.Fatalf("the options' tenants were changed: %q", configured)
	}

	// Now the store knows the configured tenant too: still one visit each.
	run, err = r.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := rt.visits(); !maps.Equal(got, want) {
		t.Fatalf("second run visited %v, want %v", got, want)
	}
	if run.Totals.Recreated != 0 || len(run.Tenants) != 3 {
		t.Fatalf("second run %+v, want nothing recreated", run)
	}
}
