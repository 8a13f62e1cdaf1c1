package stress

import (
	"context"
	"testing"

	"usertasks/repository"
	"usertasks/testfactory"
)

// Transitional, which ends the through-to-Completed timing, sees a tenant's task while it
// waits for the runtime (Completing) and not before or after; another tenant's is not seen.
func TestStoreInspectorTransitional(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		target, in := NewStoreTarget(s), StoreInspector{Store: s}
		project := func(tenant string) Item {
			t.Helper()
			it, _, err := target.Project(ctx, tenant, bookmark(tenant, "settle", 0, false))
			if err != nil {
				t.Fatal(err)
			}
			return it
		}
		waiting := func(tenant string, want bool) {
			t.Helper()
			if got, err := in.Transitional(ctx, tenant); err != nil || got != want {
				t.Fatalf("%s: transitional %v, %v; want %v", tenant, got, err, want)
			}
		}
		it := project("settle-a")
		project("settle-b")
		waiting("settle-a", false)
		a := claimer("settle-a", 1)
		claimed, o, err := target.Claim(ctx, a, it.ID, it.Revision, "settle-claim")
		if err != nil || o != Applied {
			t.Fatalf("claim: %v, %v", o, err)
		}
		if _, o, err := target.Complete(ctx, a, it.ID, claimed.Revision, "settle-complete"); err != nil || o != Applied {
			t.Fatalf("complete: %v, %v", o, err)
		}
		waiting("settle-a", true)
		waiting("settle-b", false)
		if err := target.Finalize(ctx, "settle-a", []string{it.ID}); err != nil {
			t.Fatal(err)
		}
		waiting("settle-a", false)
	})
}
