package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"usertasks/models"
)

// testDelegation drives delegate and return (SPEC 10.5) through Mutate with the lifecycle's own
// transitions: delegatedBy is stored and read back (Get and the lists), a chain ends where it
// began, a delegate's completion is on behalf of the delegator, and every refusal writes nothing
// (no revision, event or notification).
func testDelegation(t *testing.T, h Harness) {
	s, _ := noteStore(t, h)
	ann := queryActor("t1", "ann", false)
	boss := queryActor("t1", "boss", true)
	// The delegate's id carries path, query and non-ASCII characters: it is data, never a path.
	bobRef := User("t1", hostileID)
	bob := models.Actor{Tenant: "t1", Subject: bobRef, DisplayName: "Bob", Permissions: []string{"user-tasks:*"}}
	delegateTo := func(to models.ParticipantRef) lifecycle {
		return func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Delegate(cur, cmd, to, "away", now)
		}
	}
	ret := func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
		return models.Return(cur, cmd, "", now)
	}
	assignedToAnn := func(t *testing.T) models.Task {
		t.Helper()
		task := projectNote(t, s, "t1", func(p *models.Projection) { p.Assignee = ptr(User("t1", "ann")) })
		drain(t, s)
		return task
	}
	wantHolder := func(t *testing.T, task models.Task, assignee string, delegatedBy *models.ParticipantRef) {
		t.Helper()
		got := mustGet(t, s, "t1", task.ID)
		if got.Status != models.StatusAssigned || got.Assignee == nil || got.Assignee.ID != assignee {
			t.Fatalf("stored: status %s assignee %v, want Assigned to %q", got.Status, got.Assignee, assignee)
		}
		switch {
		case delegatedBy == nil && got.DelegatedBy != nil:
			t.Fatalf("stored delegatedBy %v, want none", got.DelegatedBy)
		case delegatedBy != nil && (got.DelegatedBy == nil || !got.DelegatedBy.Same(*delegatedBy)):
			t.Fatalf("stored delegatedBy %v, want %v", got.DelegatedBy, delegatedBy)
		}
	}

	t.Run("ChainBackToTheDelegator", func(t *testing.T) {
		task := assignedToAnn(t)
		task = mustCommand(t, s, task, ann, delegateTo(bobRef))
		wantHolder(t, task, hostileID, ptr(User("t1", "ann")))
		wantKeys(t, "delegated to bob", drain(t, s), "task-assigned user:"+hostileID+" r2")

		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeAssigned, Actor: bob, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || page.Items[0].DelegatedBy == nil || page.Items[0].DelegatedBy.ID != "ann" {
			t.Fatalf("bob's assigned list: %+v, want the task delegated by ann", page.Items)
		}

		task = mustCommand(t, s, task, bob, ret)
		wantHolder(t, task, "ann", nil)
		wantKeys(t, "returned to ann", drain(t, s), "returned user:ann r3")

		evs := mustEvents(t, s, "t1", task.ID)
		if len(evs) != 3 || evs[1].Type != models.EventDelegated || evs[2].Type != models.EventReturned {
			t.Fatalf("events %v, want created, delegated, returned", eventTypes(evs))
		}
		var meta struct {
			To          struct{ ID string }
			DelegatedBy struct{ ID string }
		}
		if err := json.Unmarshal(evs[1].Metadata, &meta); err != nil || meta.To.ID != hostileID || meta.DelegatedBy.ID != "ann" {
			t.Fatalf("delegated metadata %s (%v)", evs[1].Metadata, err)
		}
		if evs[1].Reason != "away" || evs[1].Actor == nil || evs[1].Actor.ID != "ann" {
			t.Fatalf("delegated event reason %q actor %v", evs[1].Reason, evs[1].Actor)
		}
	})

	t.Run("ManagerDelegatesForTheAssignee", func(t *testing.T) {
		task := assignedToAnn(t)
		task = mustCommand(t, s, task, boss, delegateTo(bobRef))
		wantHolder(t, task, hostileID, ptr(User("t1", "ann")))
		wantKeys(t, "boss delegated ann's task to bob", drain(t, s), "task-assigned user:"+hostileID+" r2")
	})

	t.Run("CompletedOnBehalfOfTheDelegator", func(t *testing.T) {
		task := assignedToAnn(t)
		task = mustCommand(t, s, task, ann, delegateTo(bobRef))
		if _, err := command(t, s, task, bob, "op-complete", 0, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Complete(cur, cmd, models.ActionComplete, nil, now)
		}); err != nil {
			t.Fatal(err)
		}
		got := mustGet(t, s, "t1", task.ID)
		if got.Status != models.StatusCompleting || got.Outcome.CompletedBy == nil || got.Outcome.CompletedBy.ID != hostileID {
			t.Fatalf("stored %s completed by %v, want Completing by bob", got.Status, got.Outcome.CompletedBy)
		}
		if o := got.Outcome.OnBehalfOf; o == nil || o.ID != "ann" {
			t.Fatalf("stored onBehalfOf %v, want ann", o)
		}
	})

	t.Run("CancelledIsOnNobodysBehalf", func(t *testing.T) {
		task := assignedToAnn(t)
		task = mustCommand(t, s, task, ann, delegateTo(bobRef))
		if _, err := command(t, s, task, boss, "op-cancel", 0, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Cancel(cur, cmd, "no longer needed", now)
		}); err != nil {
			t.Fatal(err)
		}
		if got := mustGet(t, s, "t1", task.ID); got.Outcome.OnBehalfOf != nil {
			t.Fatalf("a cancelled delegated task reads onBehalfOf %v, want none", got.Outcome.OnBehalfOf)
		}
	})

	t.Run("RefusalsWriteNothing", func(t *testing.T) {
		task := assignedToAnn(t)
		refuse := func(t *testing.T, actor models.Actor, opID string, expected int, run lifecycle, code models.Code) {
			t.Helper()
			_, err := command(t, s, task, actor, opID, expected, run)
			wantCode(t, err, code)
			if got := mustGet(t, s, "t1", task.ID); got.Revision != task.Revision || got.DelegatedBy != nil || !got.Assignee.Same(*task.Assignee) {
				t.Fatalf("after a refusal: revision %d assignee %v delegatedBy %v, want unchanged", got.Revision, got.Assignee, got.DelegatedBy)
			}
			if evs := mustEvents(t, s, "t1", task.ID); len(evs) != 1 {
				t.Fatalf("after a refusal: %d events, want 1", len(evs))
			}
			wantKeys(t, "refused", drain(t, s))
		}
		t.Run("StaleRevision", func(t *testing.T) {
			refuse(t, ann, "", 0, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
				cmd.ExpectedRevision = cur.Revision - 1
				return models.Delegate(cur, cmd, bobRef, "", now)
			}, models.CodeRevisionConflict)
		})
		t.Run("Oneself", func(t *testing.T) { refuse(t, ann, "", 0, delegateTo(User("t1", "ann")), models.CodeValidationFailed) })
		t.Run("AGroup", func(t *testing.T) {
			refuse(t, ann, "", 0, delegateTo(Group("t1", "sales")), models.CodeValidationFailed)
		})
		t.Run("AnotherTenant", func(t *testing.T) {
			refuse(t, ann, "", 0, delegateTo(User("t2", "bob")), models.CodeCrossTenantAssignee)
		})
		t.Run("NotTheAssignee", func(t *testing.T) {
			refuse(t, queryActor("t1", "cy", false), "", 0, delegateTo(bobRef), models.CodeNotFound)
		})
		t.Run("ReturnNotDelegated", func(t *testing.T) { refuse(t, ann, "", 0, ret, models.CodeNotDelegated) })
	})

	t.Run("ReplayByAnotherActorConflicts", func(t *testing.T) {
		task := assignedToAnn(t)
		first, err := command(t, s, task, ann, "op-delegate", task.Revision, delegateTo(bobRef))
		if err != nil {
			t.Fatal(err)
		}
		drain(t, s)
		_, err = command(t, s, task, boss, "op-delegate", task.Revision, delegateTo(bobRef))
		wantCode(t, err, models.CodeIdempotencyConflict)
		again, err := command(t, s, task, ann, "op-delegate", task.Revision, delegateTo(bobRef))
		if err != nil || again.Replay == nil || again.Replay.OperationID != first.Operation.OperationID {
			t.Fatalf("ann's replay: %+v, %v; want her stored operation", again.Replay, err)
		}
		if got := mustGet(t, s, "t1", task.ID); got.Revision != first.Task.Revision {
			t.Fatalf("revision %d after the replays, want %d", got.Revision, first.Task.Revision)
		}
		wantKeys(t, "replays", drain(t, s))
	})
}

func eventTypes(evs []models.Event) []models.EventType {
	out := make([]models.EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}
