package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// issue stores an invitation for the task with a raw token and code in its delivery payload.
func issue(t *testing.T, s store.Store, task models.Task, rawToken string) models.Invitation {
	t.Helper()
	inv, err := s.IssueInvitation(ctx(t), task.Tenant, task.ID, func(now time.Time, cur models.Task) (models.Invitation, models.Delivery, models.Event, error) {
		sum := sha256.Sum256([]byte(rawToken))
		inv := models.Invitation{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, VerifierName: "code",
			AllowedActions: []string{"Complete"}, Recipient: "guest@example.org", TokenHash: hex.EncodeToString(sum[:]),
			CodeHash: "c0de", Status: models.InvitationPending, IssuedAt: now, ExpiresAt: now.Add(24 * time.Hour), UpdatedAt: now}
		d := models.Delivery{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, InvitationID: inv.ID, Dispatcher: "dev-mailbox",
			Payload: []byte(`{"token":"` + rawToken + `","code":"123456"}`), State: models.DeliveryPending,
			AvailableAt: now, ExpiresAt: inv.ExpiresAt, IdempotencyKey: "issue:" + inv.ID, CreatedAt: now, UpdatedAt: now}
		ev, err := models.InvitationEvent(cur, models.Actor{Tenant: cur.Tenant, Subject: User(cur.Tenant, "boss"), Manager: true}, models.EventInvitationIssued, inv.ID, now)
		return inv, d, ev, err
	})
	if err != nil {
		t.Fatalf("issue invitation: %v", err)
	}
	return inv
}

func testInvitations(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	const raw = "raw-token-6f1c2b9a0e"
	inv := issue(t, s, task, raw)

	t.Run("FindByTokenHash", func(t *testing.T) {
		got, err := s.FindInvitationByTokenHash(ctx(t), inv.TokenHash)
		if err != nil || got.ID != inv.ID || got.Tenant != "t1" || got.Recipient != "guest@example.org" || got.Status != models.InvitationPending {
			t.Fatalf("got %+v, %v", got, err)
		}
		_, err = s.FindInvitationByTokenHash(ctx(t), "0000")
		wantIs(t, err, models.ErrNotFound)
	})
	t.Run("NoRawTokenOrRecipientPersisted", func(t *testing.T) {
		for _, q := range []struct{ unit, field, text string }{
			{"user_task_deliveries", "payload_enc", "raw-token"},
			{"user_task_invitations", "token_hash", "raw-token"},
			{"user_task_invitations", "recipient_enc", "example.org"},
			{"user_task_events", "metadata", "raw-token"},
		} {
			if n := h.containing(t, s, q.unit, q.field, q.text); n != 0 {
				t.Fatalf("%d records of %s hold %q in %s: a raw secret is stored", n, q.unit, q.text, q.field)
			}
		}
	})
	t.Run("IssuedEventAppendedWithoutRevisionBump", func(t *testing.T) {
		got := mustGet(t, s, "t1", task.ID)
		evs := mustEvents(t, s, "t1", task.ID)
		if got.Revision != task.Revision || len(evs) != 2 || evs[1].Type != models.EventInvitationIssued {
			t.Fatalf("revision %d, events %+v", got.Revision, evs)
		}
	})
	t.Run("DeliveryClaimFencedAndDispatched", func(t *testing.T) {
		first, err := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(first) != 1 || string(first[0].Payload) != `{"token":"`+raw+`","code":"123456"}` {
			t.Fatalf("claim: %+v, %v", first, err)
		}
		attempts, err := s.RetryDelivery(ctx(t), first[0], 15*time.Second, "smtp-421", false)
		if err != nil || attempts != 1 {
			t.Fatalf("retry: %d %v", attempts, err)
		}
		clock.Advance(16 * time.Second)
		second, err := s.ClaimDeliveries(ctx(t), "node-b", 10, time.Minute)
		if err != nil || len(second) != 1 || second[0].Attempts != 1 || second[0].LastError != "smtp-421" {
			t.Fatalf("reclaim: %+v, %v", second, err)
		}
		wantIs(t, s.AckDelivery(ctx(t), first[0]), models.ErrLeaseLost)
		if err := s.AckDelivery(ctx(t), second[0]); err != nil {
			t.Fatal(err)
		}
		got, _ := s.FindInvitationByTokenHash(ctx(t), inv.TokenHash)
		if got.Status != models.InvitationDispatched || got.DispatchedAt == nil {
			t.Fatalf("invitation %s, want dispatched", got.Status)
		}
		if again, _ := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute); len(again) != 0 {
			t.Fatalf("a delivered row was claimed again")
		}
	})
	t.Run("AbandonedAfterSchedule", func(t *testing.T) {
		// Its own store: the case above consumes the first invitation's delivery.
		clock := &testfactory.Clock{}
		s := h.open(t, Options{Clock: clock.Now})
		task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		issue(t, s, task, "raw-token-second")
		rows, err := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute)
		if err != nil || len(rows) != 1 {
			t.Fatalf("claim: %d %v", len(rows), err)
		}
		if _, err := s.RetryDelivery(ctx(t), rows[0], 0, "smtp-550", true); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Hour)
		if again, _ := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute); len(again) != 0 {
			t.Fatalf("an abandoned delivery was claimed again")
		}
	})
	t.Run("AtMostTwentyPerTask", func(t *testing.T) {
		other := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
		for i := 0; i < models.MaxInvitationsPerTask; i++ {
			issue(t, s, other, "tok-"+models.NewID())
		}
		_, err := s.IssueInvitation(ctx(t), "t1", other.ID, func(now time.Time, cur models.Task) (models.Invitation, models.Delivery, models.Event, error) {
			t.Fatalf("the 21st invitation was built")
			return models.Invitation{}, models.Delivery{}, models.Event{}, nil
		})
		wantCode(t, err, models.CodeValidationFailed)
	})
	t.Run("ErrNotFoundOtherTenant", func(t *testing.T) {
		_, err := s.IssueInvitation(ctx(t), "t2", task.ID, func(time.Time, models.Task) (models.Invitation, models.Delivery, models.Event, error) {
			t.Fatalf("built an invitation for another tenant's task")
			return models.Invitation{}, models.Delivery{}, models.Event{}, nil
		})
		wantIs(t, err, models.ErrNotFound)
	})
}
