package docstore_test

import (
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/testfactory"
)

// TestInvitationRelayCrash: the relay dies after moving an issued invitation and its delivery
// into their collections and before pulling them from the aggregate, and again after applying
// a revocation's effect. The reads show each once and with its status, a second revocation is
// refused, and the next pass pulls everything without inserting anything twice.
func TestInvitationRelayCrash(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	crashes, heal := docstore.CrashAt(s, docstore.AfterRelayInsert)
	g := testfactory.Invitation(ctx, t, s, task, nil)
	revoke := func(now time.Time, cur models.Task, inv models.Invitation) (models.Event, error) {
		boss := testfactory.Worker(cur.Tenant, "boss")
		boss.Manager = true
		return models.InvitationEvent(cur, boss, models.EventInvitationRevoked, inv.ID, now)
	}
	if _, err := s.RevokeInvitation(ctx, "t1", task.ID, g.ID, revoke); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	if *crashes != 2 {
		t.Fatalf("%d crashes, want 2 (the issue's relay and the revocation's)", *crashes)
	}
	if d := pendingIn(t, s, task.ID); len(d.PendingInvitations) != 1 || len(d.PendingDeliveries) != 1 || len(d.PendingEffects) != 1 {
		t.Fatalf("aggregate holds %d invitations, %d deliveries, %d effects; want the crashed relay's 1, 1, 1",
			len(d.PendingInvitations), len(d.PendingDeliveries), len(d.PendingEffects))
	}
	invs, err := s.Invitations(ctx, "t1", task.ID)
	if err != nil || len(invs) != 1 || invs[0].Status != models.InvitationRevoked {
		t.Fatalf("invitations %+v, %v: want the one, revoked", invs, err)
	}
	ds, err := s.InvitationDeliveries(ctx, "t1", task.ID)
	if err != nil || len(ds) != 1 || ds[0].State != models.DeliverySettled {
		t.Fatalf("deliveries %+v, %v: want the one, settled", ds, err)
	}
	if _, err := s.RevokeInvitation(ctx, "t1", task.ID, g.ID, revoke); models.ErrorCode(err) != models.CodeInvitationNotRevocable {
		t.Fatalf("second revocation: %v", err)
	}
	heal()
	if _, err := s.RelayPass(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if d := pendingIn(t, s, task.ID); d.RelayDue || len(d.PendingInvitations)+len(d.PendingDeliveries)+len(d.PendingEffects) != 0 {
		t.Fatalf("the pass left relay_due %v and pending entries", d.RelayDue)
	}
	if n, m := countIn(t, s, invitationCollection, task.ID), countIn(t, s, deliveryCollection, task.ID); n != 1 || m != 1 {
		t.Fatalf("%d invitations, %d deliveries stored, want 1 each", n, m)
	}
	if got, err := s.FindInvitationByTokenHash(ctx, g.TokenHash); err != nil || got.Status != models.InvitationRevoked {
		t.Fatalf("stored %s, %v", got.Status, err)
	}
}
