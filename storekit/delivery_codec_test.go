package storekit

import (
	"encoding/json"
	"testing"
	"time"

	"usertasks/models"
)

// TestDeliveryListingOpensNothing: a delivery decoded for a listing has neither payload, lease
// nor metadata; decoded for a dispatch attempt it has all three.
func TestDeliveryListingOpensNothing(t *testing.T) {
	c := Codec{Sealer: testSealer(t), Precision: time.Millisecond}
	d := models.Delivery{ID: "0190a000-0000-7000-8000-0000000000d1", Tenant: "acme", TaskID: "task-1", InvitationID: "inv-1",
		Dispatcher: "email", Payload: []byte(`{"token":"secret"}`), Metadata: json.RawMessage(`{"channel":"email"}`),
		AvailableAt: fineTime, ExpiresAt: fineTime, IdempotencyKey: "issue-1", CreatedAt: fineTime, UpdatedAt: fineTime}
	row, err := c.DeliveryRow(&d)
	if err != nil {
		t.Fatal(err)
	}
	owner, token, expires := "node-1", "tok", fineTime.Add(time.Minute)
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
