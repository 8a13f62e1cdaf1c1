package docstore_test

import (
	"slices"
	"testing"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/storetest"
	"usertasks/storetest/docharness"
	"usertasks/testfactory"
)

// auditFixture fills tenant with tasks the real transitions moved: open, assigned, completing
// (an accepted operation and its pending resumption), completed, cancelled and one with tags and
// protected values, keyed by what they are.
func auditFixture(t *testing.T, s *docstore.Store, tenant string) map[string]models.Task {
	t.Helper()
	ctx := testContext(t)
	ann := testfactory.Worker(tenant, "ann")
	boss := testfactory.Manager(tenant, "boss")
	open := func(o testfactory.TaskOpts) models.Task {
		o.Tenant, o.Candidates, o.Groups = tenant, []string{"ann", "bob"}, []string{"clerks"}
		return createTask(t, s, &o)
	}
	mutate := func(task models.Task, decide models.MutateFunc) {
		t.Helper()
		if _, err := s.Mutate(ctx, tenant, task.ID, "", decide); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]models.Task{}
	out["Available"] = open(testfactory.TaskOpts{Tags: []string{"urgent", "Finance"}, Instructions: "check", Data: `{"amount":12}`})
	out["Assigned"] = open(testfactory.TaskOpts{})
	mutate(out["Assigned"], claimBy(ann, 1, models.NewID()))
	out["Completing"] = open(testfactory.TaskOpts{})
	transition(t, s, out["Completing"], ann)
	out["Completed"] = open(testfactory.TaskOpts{})
	closeTask(t, s, out["Completed"])
	out["Cancelled"] = open(testfactory.TaskOpts{CancellationEnabled: true})
	mutate(out["Cancelled"], cancelBy(boss, 1, models.NewID()))
	mutate(out["Cancelled"], finalize)
	return out
}

func auditAll(t *testing.T, s *docstore.Store, f store.AuditFilter, size int) (int, []store.AuditFinding, map[string]int) {
	t.Helper()
	var findings []store.AuditFinding
	byKey := map[string]int{}
	n := 0
	for {
		p, err := s.Audit(testContext(t), f, size)
		if err != nil {
			t.Fatalf("audit: %v", err)
		}
		n += p.Tasks
		findings = append(findings, p.Findings...)
		for k, v := range p.ByKey {
			byKey[k] += v
		}
		if p.Done {
			return n, findings, byKey
		}
		f.AfterTenant, f.AfterID = p.LastTenant, p.LastID
	}
}

// TestAuditCleanStorePasses: what the transitions wrote audits clean in pages of every size,
// one tenant or all, with the pages ordered by (tenant, id).
func TestAuditCleanStorePasses(t *testing.T) {
	s := openStore(t, nil)
	tasks := auditFixture(t, s, "t1")
	auditFixture(t, s, "t2")
	for _, size := range []int{1, 3, 200} {
		n, findings, byKey := auditAll(t, s, store.AuditFilter{}, size)
		if len(findings) != 0 || n != 2*len(tasks) || len(byKey) != 1 || byKey[testfactory.Keys().PrimaryKeyID()] == 0 {
			t.Fatalf("page size %d: %d tasks, findings %+v, by key %v", size, n, findings, byKey)
		}
	}
	if n, _, _ := auditAll(t, s, store.AuditFilter{Tenant: "t2"}, 2); n != len(tasks) {
		t.Fatalf("tenant t2: audited %d tasks, want %d", n, len(tasks))
	}
	var ends []string
	f := store.AuditFilter{}
	for {
		p, err := s.Audit(testContext(t), f, 4)
		if err != nil {
			t.Fatal(err)
		}
		if p.Tasks > 0 {
			ends = append(ends, p.LastTenant+"/"+p.LastID)
		}
		if p.Done {
			break
		}
		f.AfterTenant, f.AfterID = p.LastTenant, p.LastID
	}
	if len(ends) != 3 || !slices.IsSorted(ends) {
		t.Fatalf("page ends %v, want three ordered by (tenant, id)", ends)
	}
}

// TestAuditFindsEachBrokenInvariant: each invariant, broken behind the store's back by the
// contract suite's tampering (BreakInvariant, storetest/docharness), yields exactly its
// own finding, naming the task.
func TestAuditFindsEachBrokenInvariant(t *testing.T) {
	cases := []struct{ invariant, task string }{
		{storekit.InvEventSequence, "Assigned"},
		{storekit.InvEventRevision, "Assigned"},
		{storekit.InvStatusEvent, "Assigned"},
		{storekit.InvStatusFields, "Available"},
		{storekit.InvCandidateSummary, "Available"},
		{storekit.InvTagRows, "Available"},
		{storekit.InvSearchText, "Available"},
		{storekit.InvOverdueFlag, "Available"},
		{storekit.InvOperationState, "Completed"},
		{storekit.InvResumption, "Completing"},
		{storekit.InvCiphertext, "Available"},
		{storekit.InvChildTenant, "Assigned"},
		{storekit.InvTenantCounter, "Cancelled"},
	}
	for _, c := range cases {
		t.Run(c.invariant, func(t *testing.T) {
			s := openStore(t, nil)
			task := auditFixture(t, s, "t1")[c.task]
			if err := docharness.Harness().Tamper(t, s, storetest.BreakInvariant(c.invariant), task.ID); err != nil {
				t.Fatalf("tamper: %v", err)
			}
			var findings []store.AuditFinding
			if c.invariant == storekit.InvTenantCounter {
				var err error
				if findings, err = s.AuditTenantCounters(testContext(t), "t1"); err != nil {
					t.Fatal(err)
				}
			} else {
				_, findings, _ = auditAll(t, s, store.AuditFilter{Tenant: "t1"}, 3)
			}
			if len(findings) != 1 || findings[0].Invariant != c.invariant || findings[0].Tenant != "t1" {
				t.Fatalf("findings %+v, want exactly one %s", findings, c.invariant)
			}
			if c.invariant != storekit.InvTenantCounter && findings[0].TaskID != task.ID {
				t.Fatalf("finding names task %q, want %s", findings[0].TaskID, task.ID)
			}
			if c.invariant == storekit.InvCiphertext {
				if _, err := s.Get(testContext(t), "t1", task.ID); err == nil {
					t.Fatal("the store read a task whose ciphertext does not open")
				}
			}
		})
	}
}
