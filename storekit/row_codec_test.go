package storekit

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"usertasks/models"
)

// at is a time finer than either store keeps.
var at = time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))

// TestInvitationRoundTripsAtTheStorePrecision: an invitation reads back as it was, its times in
// UTC at the store's precision, its recipient sealed in the row and opened again.
func TestInvitationRoundTripsAtTheStorePrecision(t *testing.T) {
	for _, p := range []time.Duration{time.Microsecond, time.Millisecond} {
		c := Codec{Sealer: testSealer(t), Precision: p}
		verified := at.Add(time.Minute)
		inv := models.Invitation{ID: "0190a000-0000-7000-8000-0000000000a1", Tenant: "acme", TaskID: "task-1",
			VerifierName: "email", AllowedActions: []string{"approve"}, Recipient: "guest@example.com",
			TokenHash: "th", CodeAttempts: 1, Status: models.InvitationVerified,
			IssuedBy: &models.ParticipantRef{Tenant: "acme", Provider: "oidc", Type: models.UserParticipant, ID: "u1"},
			IssuedAt: at, ExpiresAt: at.Add(time.Hour), VerifiedAt: &verified, UpdatedAt: at}
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
		want.IssuedAt, want.ExpiresAt, want.UpdatedAt = c.Time(at), c.Time(at.Add(time.Hour)), c.Time(at)
		want.VerifiedAt = c.TimePtr(&verified)
		if !want.IssuedAt.Equal(at.Truncate(p)) || want.IssuedAt.Location() != time.UTC {
			t.Fatalf("precision %v: %v is not %v in UTC", p, want.IssuedAt, at.Truncate(p))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("precision %v: got %+v, want %+v", p, got, want)
		}
	}
}

// TestDeliveryListingOpensNothing: a delivery decoded for a listing has neither payload, lease
// nor metadata; decoded for a dispatch attempt it has all three.
func TestDeliveryListingOpensNothing(t *testing.T) {
	c := Codec{Sealer: testSealer(t), Precision: time.Millisecond}
	d := models.Delivery{ID: "0190a000-0000-7000-8000-0000000000d1", Tenant: "acme", TaskID: "task-1", InvitationID: "inv-1",
		Dispatcher: "email", Payload: []byte(`{"token":"secret"}`), Metadata: json.RawMessage(`{"channel":"email"}`),
		AvailableAt: at, ExpiresAt: at, IdempotencyKey: "issue-1", CreatedAt: at, UpdatedAt: at}
	row, err := c.DeliveryRow(&d)
	if err != nil {
		t.Fatal(err)
	}
	owner, token, expires := "node-1", "tok", at.Add(time.Minute)
	row.LeaseOwner, row.LeaseToken, row.LeaseGeneration, row.LeaseExpiresAt = &owner, &token, 3, &expires

	listed, err := c.Delivery(&row, false)
	if err != nil || listed.Payload != nil || listed.Lease != nil || listed.Metadata != nil {
		t.Fatalf("listed %+v, %v: want no payload, lease or metadata", listed, err)
	}
	claimed, err := c.Delivery(&row, true)
	if err != nil {
		t.Fatal(err)
	}
	if string(claimed.Payload) != string(d.Payload) || string(claimed.Metadata) != string(d.Metadata) ||
		claimed.Lease == nil || claimed.Lease.Generation != 3 || !claimed.Lease.ExpiresAt.Equal(c.Time(expires)) {
		t.Fatalf("claimed %+v: want the payload, metadata and lease", claimed)
	}
	if _, err := c.DeliveryRow(&models.Delivery{ID: "d2"}); err == nil {
		t.Fatal("a delivery without a payload was encoded")
	}
}

// TestNextLease: a lease never taken starts at generation 1, an expired one goes to the next
// generation, a live one is lost.
func TestNextLease(t *testing.T) {
	c := Codec{Precision: time.Microsecond}
	now := at.UTC()
	first, err := c.NextLease(nil, "node-1", now, time.Minute)
	if err != nil || first.Generation != 1 || first.Owner != "node-1" || !first.ExpiresAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("first take: %+v, %v", first, err)
	}
	held := c.LeaseRow("sweep", first, now)
	if _, err := c.NextLease(&held, "node-2", now, time.Minute); !errors.Is(err, models.ErrLeaseLost) {
		t.Fatalf("a live lease taken over: %v", err)
	}
	next, err := c.NextLease(&held, "node-2", now.Add(time.Minute), time.Minute)
	if err != nil || next.Generation != 2 || next.Token == first.Token {
		t.Fatalf("take-over of an expired lease: %+v, %v", next, err)
	}
}

// TestVerificationResult: a missing row, a lost race and a recorded refusal are all
// models.ErrGuestDenied; any other failure stays what it is.
func TestVerificationResult(t *testing.T) {
	conflict := models.Conflict(models.CodeRevisionConflict)
	other := errors.New("disk full")
	for _, tc := range []struct {
		name   string
		err    error
		denied bool
		want   error
	}{
		{"NotFound", models.ErrNotFound, false, models.ErrGuestDenied},
		{"RevisionConflict", conflict, false, models.ErrGuestDenied},
		{"Denied", nil, true, models.ErrGuestDenied},
		{"OtherFailure", other, false, other},
		{"OK", nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := VerificationResult(tc.err, tc.denied); !errors.Is(got, tc.want) || (tc.want == nil && got != nil) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
