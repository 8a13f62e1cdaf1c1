package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// EveryStatus fills tenant with tasks the real transitions moved into every status, keyed by
// status name, plus "Released" (claimed, then released), "Overdue" (flagged by the due sweep),
// "Removed" (an open task whose bookmark the runtime removed) and "Guest" (assigned to the guest
// of a consumed invitation, with a live session and a revoked sibling). The Available task
// has tags, protected values, candidates and an undispatched invitation; the Completing task a
// form and the completion data its accepted operation carries.
func EveryStatus(t *testing.T, h Harness, s store.Store, tenant string) map[string]models.Task {
	t.Helper()
	ann := queryActor(tenant, "ann", false)
	boss := queryActor(tenant, "boss", true)
	past := time.Now().UTC().Add(-time.Hour)
	mutate := func(task models.Task, decide func(now time.Time, cur models.Task) (models.Change, error)) models.Task {
		t.Helper()
		c, err := s.Mutate(ctx(t), tenant, task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
			return decide(now, cur)
		})
		if err != nil {
			t.Fatalf("mutate %s: %v", task.Status, err)
		}
		return c.Task
	}
	cmd := func(a models.Actor, cur models.Task) models.Command {
		return models.Command{OperationID: models.NewID(), ExpectedRevision: cur.Revision, Actor: a}
	}
	claim := func(task models.Task) models.Task {
		return mutate(task, func(now time.Time, cur models.Task) (models.Change, error) {
			return models.Claim(cur, cmd(ann, cur), now)
		})
	}
	finalize := func(task models.Task) models.Task {
		return mutate(task, func(now time.Time, cur models.Task) (models.Change, error) { return models.Finalize(cur, now) })
	}
	open := func(o TaskOpts) models.Task {
		o.Tenant = tenant
		if o.CandidateUsers == nil {
			o.CandidateUsers = []string{"ann", "bob"}
		}
		o.CandidateGroups = []string{"clerks"}
		return CreateTask(t, s, o)
	}
	complete := func(task models.Task, data string) models.Task {
		return mutate(claim(task), func(now time.Time, cur models.Task) (models.Change, error) {
			var raw json.RawMessage
			if data != "" {
				raw = json.RawMessage(data)
			}
			return models.Complete(cur, cmd(ann, cur), models.ActionComplete, raw, now)
		})
	}
	timeout := func(task models.Task) models.Task {
		return mutate(task, func(now time.Time, cur models.Task) (models.Change, error) { return models.RequestTimeout(cur, now) })
	}
	cancel := func(task models.Task) models.Task {
		return mutate(task, func(now time.Time, cur models.Task) (models.Change, error) {
			return models.Cancel(cur, cmd(boss, cur), "no longer needed", now)
		})
	}

	out := map[string]models.Task{}
	out["Unassigned"] = CreateTask(t, s, TaskOpts{Tenant: tenant})
	// The guest first: verifiedGuest dispatches every pending delivery, and the Available task's
	// invitation stays undispatched.
	out["Guest"] = verifiedGuest(t, h, s, open(TaskOpts{CandidateUsers: []string{}}))
	out["Available"] = open(TaskOpts{Tags: []string{"urgent", "Finance"}, Instructions: "Check the invoice", Data: `{"amount":12}`})
	issue(t, s, out["Available"], "raw-"+models.NewID())
	out["Assigned"] = claim(open(TaskOpts{}))
	out["Completing"] = complete(open(TaskOpts{Form: `{"type":"object"}`}), `{"approved":true}`)
	out["TimingOut"] = timeout(open(TaskOpts{Timeout: true, DueAt: &past}))
	out["Cancelling"] = cancel(open(TaskOpts{Cancellation: true}))
	out["Completed"] = finalize(complete(open(TaskOpts{}), ""))
	out["TimedOut"] = finalize(timeout(open(TaskOpts{Timeout: true, DueAt: &past})))
	out["Cancelled"] = finalize(cancel(open(TaskOpts{Cancellation: true})))
	out["Removed"] = finalize(open(TaskOpts{}))
	out["Released"] = mutate(claim(open(TaskOpts{})), func(now time.Time, cur models.Task) (models.Change, error) {
		return models.Release(cur, cmd(ann, cur), "", now)
	})
	out["Overdue"] = mutate(open(TaskOpts{DueAt: &past}), func(now time.Time, cur models.Task) (models.Change, error) {
		return models.MarkOverdue(cur, now)
	})
	return out
}

// verifiedGuest issues two sibling invitations for task, dispatches them, and verifies the
// first as SPEC 6 describes in one transaction: the task goes to its guest (models.VerifyGuest),
// the invitation is consumed, its sibling revoked and a guest session created. The invitation
// and session records are written by the harness (Tamper), standing in for the guest
// verification store code.
func verifiedGuest(t *testing.T, h Harness, s store.Store, task models.Task) models.Task {
	t.Helper()
	first := issue(t, s, task, "raw-"+models.NewID())
	sibling := issue(t, s, task, "raw-"+models.NewID())
	rows, err := s.ClaimDeliveries(ctx(t), "audit", 50, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rows {
		if err := s.AckDelivery(ctx(t), d); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.Mutate(ctx(t), task.Tenant, task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return models.VerifyGuest(cur, first.ID, now)
	})
	if err != nil {
		t.Fatalf("verify guest: %v", err)
	}
	h.tamper(t, s, SetSiblingGroup, "group-"+task.ID[:8], task.ID)
	h.tamper(t, s, ConsumeInvitationRecord, first.ID)
	h.tamper(t, s, RevokeInvitationRecord, sibling.ID)
	sum := sha256.Sum256([]byte("session-" + first.ID))
	now := time.Now().UTC().Truncate(time.Second)
	h.tamper(t, s, InsertGuestSession, models.NewID(), task.Tenant, task.ID, first.ID, hex.EncodeToString(sum[:]),
		models.GuestProvider, "invitation:"+first.ID, `["Complete"]`, now, now.Add(4*time.Hour))
	return c.Task
}
