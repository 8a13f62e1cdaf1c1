package storekit

import (
	"reflect"
	"testing"
	"time"

	"usertasks/models"
)

// fineTime is a time finer than either store keeps.
var fineTime = time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))

// TestInvitationRoundTripsAtTheStorePrecision: an invitation reads back as it was, its times in
// UTC at the store's precision, its recipient sealed in the row and opened again.
func TestInvitationRoundTripsAtTheStorePrecision(t *testing.T) {
	for _, p := range []time.Duration{time.Microsecond, time.Millisecond} {
		c := Codec{Sealer: testSealer(t), Precision: p}
		verified := fineTime.Add(time.Minute)
		inv := models.Invitation{ID: "0190a000-0000-7000-8000-0000000000a1", Tenant: "acme", TaskID: "task-1",
			VerifierName: "email", AllowedActions: []string{"approve"}, Recipient: "guest@example.com",
			TokenHash: "th", CodeAttempts: 1, Status: models.InvitationVerified,
			IssuedBy: &models.ParticipantRef{Tenant: "acme", Provider: "oidc", Type: models.UserParticipant, ID: "u1"},
			IssuedAt: fineTime, ExpiresAt: fineTime.Add(time.Hour), VerifiedAt: &verified, UpdatedAt: fineTime}
		row, err := c.InvitationRow(&inv)
		if err != nil {
			t.Fatal(err)
		}
		if row.RecipientEnc == nil || *row.RecipientEnc == inv.Recipient || row.SiblingGroupID != nil || row.CodeHash != nil {
			t.Fatalf("row %+v: want the recipient sealed and empty fields NULL", row)
		}
		got, err := c.Invitation(&row)
		if err != nil {
			t.Fatal(err)
		}
		want := inv
		want.IssuedAt, want.ExpiresAt, want.UpdatedAt = c.Time(fineTime), c.Time(fineTime.Add(time.Hour)), c.Time(fineTime)
		want.VerifiedAt = c.TimePtr(&verified)
		if !want.IssuedAt.Equal(fineTime.Truncate(p)) || want.IssuedAt.Location() != time.UTC {
			t.Fatalf("precision %v: %v is not %v in UTC", p, want.IssuedAt, fineTime.Truncate(p))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("precision %v: got %+v, want %+v", p, got, want)
		}
	}
}
