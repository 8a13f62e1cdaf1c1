package storetest

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// testInvitationExpiry: the delivery worker's sweep really sets `expired` and drops the
// unsent deliveries of expired invitations; other statuses and leased rows stay.
func testInvitationExpiry(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	other := CreateTask(t, s, TaskOpts{Tenant: "t2", CandidateUsers: []string{"ann"}})
	pending := issue(t, s, task, "tok-expiry-pending")
	dispatched := issue(t, s, task, "tok-expiry-dispatched")
	leased := issue(t, s, task, "tok-expiry-leased")
	foreign := issue(t, s, other, "tok-expiry-t2")

	// dispatched: delivered now; leased: claimed later, just before expiry.
	rows, err := s.ClaimDeliveries(ctx(t), "node-a", 10, time.Minute)
	if err != nil || len(rows) != 4 {
		t.Fatalf("claim: %d %v", len(rows), err)
	}
	for _, d := range rows {
		switch d.InvitationID {
		case dispatched.ID:
			mustOK(t, s.AckDelivery(ctx(t), d))
		default:
			if _, err := s.RetryDelivery(ctx(t), d, 24*time.Hour-2*time.Minute, "smtp-421", false); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("NothingBeforeExpiry", func(t *testing.T) {
		got, err := s.ExpireInvitations(ctx(t), 10)
		if err != nil || len(got) != 0 {
			t.Fatalf("expired %v, %v", got, err)
		}
	})
	clock.Advance(24*time.Hour - time.Minute) // the retries are due, the invitations not yet expired
	held, err := s.ClaimDeliveries(ctx(t), "node-b", 10, time.Hour)
	if err != nil || len(held) != 3 {
		t.Fatalf("claim before expiry: %d %v", len(held), err)
	}
	for _, d := range held {
		if d.InvitationID != leased.ID {
			if _, err := s.RetryDelivery(ctx(t), d, time.Minute, "smtp-421", false); err != nil {
				t.Fatal(err)
			}
		}
	}
	clock.Advance(2 * time.Minute)

	t.Run("ExpiresPendingAndDispatchedPerTenant", func(t *testing.T) {
		got, err := s.ExpireInvitations(ctx(t), 10)
		if err != nil || len(got) != 2 || got["t1"] != 3 || got["t2"] != 1 {
			t.Fatalf("expired %v, %v", got, err)
		}
		for _, inv := range []models.Invitation{pending, dispatched, leased, foreign} {
			cur, err := s.FindInvitationByTokenHash(ctx(t), inv.TokenHash)
			if err != nil || cur.Status != models.InvitationExpired {
				t.Fatalf("invitation %s: %s, %v", inv.ID, cur.Status, err)
			}
		}
	})
	t.Run("UnsentDeliveriesDroppedLeasedKept", func(t *testing.T) {
		if again, _ := s.ClaimDeliveries(ctx(t), "node-c", 10, time.Minute); len(again) != 0 {
			t.Fatalf("an expired delivery was claimed again: %d", len(again))
		}
		n := h.records(t, s, "user_task_deliveries", map[string]any{
			"state": string(models.DeliveryAbandoned), "last_error": repository.ExpiredDeliveryCode})
		if n != 2 {
			t.Fatalf("%d deliveries dropped as expired, want 2 (pending, foreign)", n)
		}
		for _, d := range held {
			if d.InvitationID == leased.ID {
				// Its holder still answers for it (and drops it, seeing the expiry).
				if _, err := s.RetryDelivery(ctx(t), d, 0, repository.ExpiredDeliveryCode, true); err != nil {
					t.Fatalf("the leased row was taken from its holder: %v", err)
				}
			}
		}
	})
	t.Run("SecondSweepFindsNothing", func(t *testing.T) {
		got, err := s.ExpireInvitations(ctx(t), 10)
		if err != nil || len(got) != 0 {
			t.Fatalf("expired %v, %v", got, err)
		}
	})
	t.Run("LimitBoundsOneSweep", func(t *testing.T) {
		for range 3 {
			issue(t, s, task, "tok-"+models.NewID())
		}
		clock.Advance(25 * time.Hour)
		first, err := s.ExpireInvitations(ctx(t), 2)
		if err != nil || first["t1"] != 2 {
			t.Fatalf("first sweep %v, %v", first, err)
		}
		second, err := s.ExpireInvitations(ctx(t), 2)
		if err != nil || second["t1"] != 1 {
			t.Fatalf("second sweep %v, %v", second, err)
		}
	})
}

// testDeliveryNotify: IssueInvitation calls the NotifyDeliveries hook once after its commit,
// and a refused issuance does not.
func testDeliveryNotify(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	task := CreateTask(t, s, TaskOpts{CandidateUsers: []string{"ann"}})
	calls := 0
	s.NotifyDeliveries(func() { calls++ })
	issue(t, s, task, "tok-notify-1")
	if calls != 1 {
		t.Fatalf("%d calls after one issuance", calls)
	}
	_, err := s.IssueInvitation(ctx(t), "t2", task.ID, func(time.Time, models.Task) (models.Invitation, models.Delivery, models.Event, error) {
		return models.Invitation{}, models.Delivery{}, models.Event{}, nil
	})
	wantIs(t, err, models.ErrNotFound)
	s.NotifyDeliveries(nil)
	issue(t, s, task, "tok-notify-2")
	if calls != 1 {
		t.Fatalf("%d calls: a refused issuance or a removed hook notified", calls)
	}
}
