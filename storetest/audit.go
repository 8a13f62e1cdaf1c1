package storetest

import (
	"slices"
	"testing"

	"usertasks/store"
	"usertasks/storekit"
)

// testAudit states the audit (SPEC 8, `web audit`): a store the real transitions wrote — tasks in
// every status with candidates, tags, operations, outbox rows, invitations, a guest — audits
// clean page by page, and each invariant, broken behind the store's back (BreakInvariant), yields
// exactly its own finding.
func testAudit(t *testing.T, h Harness) {
	t.Run("CleanStorePasses", func(t *testing.T) {
		s := h.open(t, Options{})
		tasks := EveryStatus(t, h, s, "t1")
		EveryStatus(t, h, s, "t2")

		for _, size := range []int{1, 4, 200} {
			n, findings, byKey := AuditAll(t, s, store.AuditFilter{}, size)
			if len(findings) != 0 {
				t.Fatalf("page size %d: findings on a clean store: %+v", size, findings)
			}
			if n != 2*len(tasks) {
				t.Fatalf("page size %d: audited %d tasks, want %d", size, n, 2*len(tasks))
			}
			if len(byKey) != 1 {
				t.Fatalf("sealed values by key %v, want all under the primary", byKey)
			}
		}
		n, _, _ := AuditAll(t, s, store.AuditFilter{Tenant: "t2"}, 3)
		if n != len(tasks) {
			t.Fatalf("tenant t2: audited %d tasks, want %d", n, len(tasks))
		}
		counters, err := s.AuditTenantCounters(ctx(t), "")
		if err != nil || len(counters) != 0 {
			t.Fatalf("tenant counters: %+v, %v", counters, err)
		}
	})

	t.Run("ResumesAfterTheLastTask", func(t *testing.T) {
		s := h.open(t, Options{})
		for i := 0; i < 5; i++ {
			CreateTask(t, s, TaskOpts{Tenant: []string{"a", "b"}[i%2]})
		}
		var seen []string
		f := store.AuditFilter{}
		for {
			p, err := s.Audit(ctx(t), f, 2)
			if err != nil {
				t.Fatal(err)
			}
			if p.Tasks > 0 {
				seen = append(seen, p.LastTenant+"/"+p.LastID)
			}
			if p.Done {
				break
			}
			f.AfterTenant, f.AfterID = p.LastTenant, p.LastID
		}
		if len(seen) != 3 || !slices.IsSorted(seen) || seen[0][0] != 'a' || seen[2][0] != 'b' {
			t.Fatalf("page ends %v, want three pages ordered by (tenant, id)", seen)
		}
	})

	t.Run("SealedTablesOutsideTasks", func(t *testing.T) {
		s := h.open(t, Options{})
		good := CreateWebSession(t, s, &WebSessionOpts{RefreshToken: "refresh-secret"})
		bad := CreateWebSession(t, s, &WebSessionOpts{RefreshToken: "other-secret"})
		h.tamper(t, s, MoveRefreshToken, good.IDHash, bad.IDHash)
		var unreadable []string
		rows, after := 0, ""
		for _, table := range storekit.SealedTables {
			if table.TaskScoped {
				continue
			}
			for {
				p, err := s.AuditSealed(ctx(t), table.Name, after, 1)
				if err != nil {
					t.Fatal(err)
				}
				rows += p.Rows
				unreadable = append(unreadable, p.Unreadable...)
				if after = p.Next; after == "" {
					break
				}
			}
		}
		if rows != 2 || len(unreadable) != 1 || unreadable[0] != bad.IDHash {
			t.Fatalf("read %d rows, unreadable %v, want only %s", rows, unreadable, bad.IDHash)
		}
		if _, err := s.AuditSealed(ctx(t), "user_tasks", "", 10); err == nil {
			t.Fatalf("AuditSealed walked a task table the page audit covers")
		}
	})

	for _, c := range auditCorruptions() {
		t.Run(c.invariant, func(t *testing.T) {
			s := h.open(t, Options{})
			task := EveryStatus(t, h, s, "t1")[c.task]
			h.tamper(t, s, BreakInvariant(c.invariant), task.ID)
			var findings []store.AuditFinding
			if c.invariant == storekit.InvTenantCounter {
				var err error
				if findings, err = s.AuditTenantCounters(ctx(t), "t1"); err != nil {
					t.Fatal(err)
				}
			} else {
				_, findings, _ = AuditAll(t, s, store.AuditFilter{Tenant: "t1"}, 3)
			}
			if len(findings) != 1 || findings[0].Invariant != c.invariant || findings[0].Tenant != "t1" {
				t.Fatalf("findings %+v, want exactly one %s", findings, c.invariant)
			}
			if c.invariant != storekit.InvTenantCounter && findings[0].TaskID != task.ID {
				t.Fatalf("finding names task %q, want %s", findings[0].TaskID, task.ID)
			}
			if c.invariant == storekit.InvCiphertext {
				if _, err := s.Get(ctx(t), "t1", task.ID); err == nil {
					t.Fatalf("the store read a task whose ciphertext does not open")
				}
			}
		})
	}
}

// auditCorruption breaks one invariant of one EveryStatus task (BreakInvariant).
type auditCorruption struct {
	invariant string
	task      string // a key of EveryStatus
}

// auditCorruptions are the invariants the audit checks per task, each with the EveryStatus task
// its tampering breaks.
func auditCorruptions() []auditCorruption {
	return []auditCorruption{
		{storekit.InvEventSequence, "Assigned"},
		{storekit.InvEventRevision, "Assigned"},
		{storekit.InvStatusEvent, "Assigned"},
		{storekit.InvStatusFields, "Available"},
		{storekit.InvCandidateStatus, "Completing"},
		{storekit.InvCandidateSummary, "Available"},
		{storekit.InvTagRows, "Available"},
		{storekit.InvSearchText, "Available"},
		{storekit.InvOverdueFlag, "Unassigned"},
		{storekit.InvOperationState, "Completed"},
		{storekit.InvResumption, "Completing"},
		{storekit.InvResumeStimulus, "Completing"},
		{storekit.InvCiphertext, "Available"},
		{storekit.InvChildTenant, "Assigned"},
		{storekit.InvTenantCounter, "Cancelled"},
		{storekit.InvInvitationGuest, "Available"},
		{storekit.InvInvitationGroup, "Guest"},
		{storekit.InvGuestSession, "Guest"},
		{storekit.InvDeliveryState, "Available"},
		{storekit.InvTokenHash, "Available"},
	}
}

// AuditAll audits every page under f and returns how many tasks it read, every finding and the
// sealed values by key id.
func AuditAll(t *testing.T, s store.Store, f store.AuditFilter, size int) (int, []store.AuditFinding, map[string]int) {
	t.Helper()
	var findings []store.AuditFinding
	byKey := map[string]int{}
	n := 0
	for {
		p, err := s.Audit(ctx(t), f, size)
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
