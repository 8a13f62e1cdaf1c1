package demo_test

import (
	"context"
	"testing"

	"usertasks/demo"
	"usertasks/store"
	"usertasks/storetest"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// The demo seed is written by the real projection and transitions, so `web audit` finds it clean.
func TestSeedAuditsClean(t *testing.T) {
	ctx := context.Background()
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	if err := demo.Seed(ctx, s, workflow.NewProjector(s, workflow.NewResolver(demo.ResolverOptions()))); err != nil {
		t.Fatalf("seed: %v", err)
	}
	n, findings, _ := storetest.AuditAll(t, s, store.AuditFilter{}, 7)
	if n < 12 || len(findings) != 0 {
		t.Fatalf("audited %d tasks, findings %+v", n, findings)
	}
	counters, err := s.AuditTenantCounters(ctx, "")
	if err != nil || len(counters) != 0 {
		t.Fatalf("tenant counters: %+v, %v", counters, err)
	}
}
