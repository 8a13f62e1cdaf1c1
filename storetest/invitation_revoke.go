package storetest

import (
	"errors"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// revokeAs is the revocation a manager's request builds: the invitation-revoked event.
func revokeAs(now time.Time, cur models.Task, inv models.Invitation) (models.Event, error) {
	boss := models.Actor{Tenant: cur.Tenant, Subject: User(cur.Tenant, "boss"), Manager: true}
	return models.InvitationEvent(cur, boss, models.EventInvitationRevoked, inv.ID, now)
}

// addGuestSession stores a live guest session of inv, as a verification would.
func addGuestSession(t *testing.T, h Harness, s store.Store, inv models.Invitation, now time.Time) {
	t.Helper()
	h.tamper(t, s, InsertGuestSession, models.NewID(), inv.Tenant, inv.TaskID, inv.ID, models.NewID(), models.GuestProvider,
		"invitation:"+inv.ID, `["Complete"]`, now.UTC(), now.Add(time.Hour).UTC())
}

func testInvitationRevoke(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	inv := issue(t, s, task, "raw-token-revoke-1")
	other := issue(t, s, task, "raw-token-revoke-2")
	addGuestSession(t, h, s, inv, time.Now())
	addGuestSession(t, h, s, other, time.Now())
	liveSessions := func(id string) int {
		return h.records(t, s, "user_task_guest_sessions", map[string]any{"invitation_id": id, "revoked_at": nil})
	}

	t.Run("OK", func(t *testing.T) {
		claimed, err := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(claimed) != 2 {
			t.Fatalf("claim: %d %v", len(claimed), err)
		}
		got, err := s.RevokeInvitation(ctx(t), "t1", task.ID, inv.ID, revokeAs)
		if err != nil || got.Status != models.InvitationRevoked || got.RevokedAt == nil {
			t.Fatalf("revoke: %+v, %v", got, err)
		}
		stored, _ := s.FindInvitationByTokenHash(ctx(t), inv.TokenHash)
		if stored.Status != models.InvitationRevoked || stored.RevokedAt == nil {
			t.Fatalf("stored %s", stored.Status)
		}
		for _, d := range claimed {
			err := s.AckDelivery(ctx(t), d)
			if d.InvitationID == inv.ID {
				wantIs(t, err, models.ErrLeaseLost) // the dispatcher holding the row sends nothing
			} else if err != nil {
				t.Fatalf("the other invitation's delivery: %v", err)
			}
		}
		if n := liveSessions(inv.ID); n != 0 {
			t.Fatalf("%d live guest sessions after revocation", n)
		}
		if n := liveSessions(other.ID); n != 1 {
			t.Fatalf("the other invitation's session was touched: %d live", n)
		}
		evs := mustEvents(t, s, "t1", task.ID)
		last := evs[len(evs)-1]
		if last.Type != models.EventInvitationRevoked || mustGet(t, s, "t1", task.ID).Revision != task.Revision {
			t.Fatalf("last event %s; revision changed", last.Type)
		}
	})
	t.Run("DeliveriesListedWithoutPayload", func(t *testing.T) {
		ds, err := s.InvitationDeliveries(ctx(t), "t1", task.ID)
		if err != nil || len(ds) != 2 {
			t.Fatalf("deliveries: %d %v", len(ds), err)
		}
		states := map[string]models.DeliveryState{}
		for _, d := range ds {
			if d.Payload != nil || d.TaskID != task.ID {
				t.Fatalf("delivery %+v carries its payload", d)
			}
			states[d.InvitationID] = d.State
		}
		if states[inv.ID] != models.DeliverySettled || states[other.ID] != models.DeliveryDelivered {
			t.Fatalf("states %v", states)
		}
		if ds, _ := s.InvitationDeliveries(ctx(t), "t2", task.ID); len(ds) != 0 {
			t.Fatalf("another tenant saw %d deliveries", len(ds))
		}
	})
	t.Run("ErrNotRevocableTwice", func(t *testing.T) {
		_, err := s.RevokeInvitation(ctx(t), "t1", task.ID, inv.ID, revokeAs)
		wantCode(t, err, models.CodeInvitationNotRevocable)
	})
	t.Run("VerifiedGuestLosesSession", func(t *testing.T) {
		h.tamper(t, s, SetInvitationStatus, string(models.InvitationVerified), other.ID)
		if _, err := s.RevokeInvitation(ctx(t), "t1", task.ID, other.ID, revokeAs); err != nil {
			t.Fatal(err)
		}
		if n := liveSessions(other.ID); n != 0 {
			t.Fatalf("%d live guest sessions", n)
		}
	})
	t.Run("RefusedBuildWritesNothing", func(t *testing.T) {
		third := issue(t, s, task, "raw-token-revoke-3")
		before := len(mustEvents(t, s, "t1", task.ID))
		refuse := errors.New("refused")
		_, err := s.RevokeInvitation(ctx(t), "t1", task.ID, third.ID, func(time.Time, models.Task, models.Invitation) (models.Event, error) {
			return models.Event{}, refuse
		})
		wantIs(t, err, refuse)
		stored, _ := s.FindInvitationByTokenHash(ctx(t), third.TokenHash)
		if stored.Status != models.InvitationPending || len(mustEvents(t, s, "t1", task.ID)) != before {
			t.Fatalf("a refused revocation wrote: %s", stored.Status)
		}
		if _, err := s.RevokeInvitation(ctx(t), "t1", task.ID, third.ID, revokeAs); err != nil {
			t.Fatalf("revoke after refusal: %v", err) // the reserved sequence number was rolled back
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		elsewhere := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		fresh := issue(t, s, task, "raw-token-revoke-4")
		for _, c := range []struct{ tenant, task, inv string }{
			{"t2", task.ID, fresh.ID},        // another tenant
			{"t1", elsewhere.ID, fresh.ID},   // another task's invitation
			{"t1", task.ID, models.NewID()},  // unknown invitation
			{"t1", models.NewID(), fresh.ID}, // unknown task
		} {
			_, err := s.RevokeInvitation(ctx(t), c.tenant, c.task, c.inv, func(time.Time, models.Task, models.Invitation) (models.Event, error) {
				t.Fatalf("built a revocation for %+v", c)
				return models.Event{}, nil
			})
			wantIs(t, err, models.ErrNotFound)
		}
	})
}
