package docstore

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// A white-box test of the invitation effects' overlay and apply (invitation_effect.go), on the
// documents themselves; the store's tests are in package docstore_test.

// TestInvitationEffectOverlay: a queued status change shows in the reads before the relay
// applies it, and applying an effect twice, or to an invitation in another status, changes
// nothing.
func TestInvitationEffectOverlay(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	three := 3
	verify := invitationEffect{InvitationID: "i1", From: verifiable, To: string(models.InvitationVerified), Stamp: "verified_at", At: at}
	count := invitationEffect{InvitationID: "i1", From: verifiable, CodeAttempts: &three, At: at}
	d := invitationDoc{InvitationRow: storekit.InvitationRow{ID: "i1", Status: string(models.InvitationPending), CodeAttempts: 2}}
	cur := &taskDoc{PendingEffects: []effectDoc{invitationEffectDoc(count), invitationEffectDoc(verify)}}
	overlay(cur, &d)
	if d.Status != string(models.InvitationVerified) || d.VerifiedAt == nil || !d.VerifiedAt.Equal(at) || d.CodeAttempts != 3 {
		t.Fatalf("after the overlay: %+v", d)
	}
	if set := verify.apply(&d); set != nil {
		t.Fatalf("the verification applied twice: %v", set)
	}
	if set := count.apply(&d); set != nil {
		t.Fatalf("a count applied to a verified invitation: %v", set)
	}
	other := invitationDoc{InvitationRow: storekit.InvitationRow{ID: "i2", Status: string(models.InvitationPending)}}
	if set := verify.apply(&other); set != nil || other.Status != string(models.InvitationPending) {
		t.Fatalf("an effect changed another invitation: %v", set)
	}
}
