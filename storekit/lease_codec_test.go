package storekit

import (
	"errors"
	"testing"
	"time"

	"usertasks/models"
)

// TestNextLease: a lease never taken starts at generation 1, an expired one goes to the next
// generation, a live one is lost.
func TestNextLease(t *testing.T) {
	c := Codec{Precision: time.Microsecond}
	now := fineTime.UTC()
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
