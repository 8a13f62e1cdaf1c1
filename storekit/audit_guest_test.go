package storekit

import (
	"testing"

	"usertasks/models"
)

func TestGuestHoldsAndMovedOnFrom(t *testing.T) {
	guest, ann := models.GuestProvider, "local"
	id := "invitation:inv-1"
	if !GuestHolds(&guest, &id, "inv-1") || GuestHolds(&guest, &id, "inv-2") || GuestHolds(&ann, &id, "inv-1") || GuestHolds(nil, nil, "inv-1") {
		t.Fatal("GuestHolds answers another guest, provider or no assignee")
	}
	verified := `{"invitationId":"inv-1"}`
	events := []struct {
		typ  models.EventType
		meta *string
	}{{models.EventCreated, nil}, {models.EventInvitationVerified, &verified}}
	moved := func(id string) bool {
		return MovedOnFrom(id, len(events), func(i int) (string, *string) { return string(events[i].typ), events[i].meta })
	}
	if moved("inv-1") {
		t.Fatal("moved on without a later status-changing event")
	}
	events = append(events, struct {
		typ  models.EventType
		meta *string
	}{models.EventReleased, nil})
	if !moved("inv-1") || moved("inv-2") {
		t.Fatalf("a release after inv-1's verification: moved(inv-1) %v, moved(inv-2) %v", moved("inv-1"), moved("inv-2"))
	}
}
