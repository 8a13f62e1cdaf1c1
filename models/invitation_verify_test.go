package models

import (
	"testing"
	"time"
)

func TestGuestSessionLiveOnlyWhileEveryCheckHolds(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	guest := GuestRef("t1", "inv-1")
	live := func() (GuestSession, Invitation, Task) {
		s := GuestSession{Tenant: "t1", TaskID: "task-1", InvitationID: "inv-1", Participant: guest, ExpiresAt: now.Add(time.Hour)}
		inv := Invitation{ID: "inv-1", Tenant: "t1", TaskID: "task-1", Status: InvitationVerified}
		g := guest
		return s, inv, Task{ID: "task-1", Tenant: "t1", Status: StatusAssigned, Assignee: &g}
	}
	if s, inv, task := live(); !GuestSessionLive(s, inv, task, now) {
		t.Fatal("a live session is refused")
	}
	other := ParticipantRef{Tenant: "t1", Provider: DefaultProvider, Type: UserParticipant, ID: "ann"}
	for name, breakIt := range map[string]func(*GuestSession, *Invitation, *Task){
		"SessionRevoked":     func(s *GuestSession, _ *Invitation, _ *Task) { s.RevokedAt = &now },
		"SessionExpired":     func(s *GuestSession, _ *Invitation, _ *Task) { s.ExpiresAt = now },
		"InvitationRevoked":  func(_ *GuestSession, i *Invitation, _ *Task) { i.Status = InvitationRevoked },
		"InvitationConsumed": func(_ *GuestSession, i *Invitation, _ *Task) { i.Status = InvitationConsumed },
		"OtherInvitation":    func(_ *GuestSession, i *Invitation, _ *Task) { i.ID = "inv-2" },
		"Reassigned":         func(_ *GuestSession, _ *Invitation, t *Task) { t.Assignee = &other },
		"Released":           func(_ *GuestSession, _ *Invitation, t *Task) { t.Assignee, t.Status = nil, StatusAvailable },
		"Completing":         func(_ *GuestSession, _ *Invitation, t *Task) { t.Status = StatusCompleting },
		"Closed":             func(_ *GuestSession, _ *Invitation, t *Task) { t.Status = StatusCompleted },
		"OtherTask":          func(_ *GuestSession, _ *Invitation, t *Task) { t.ID = "task-2" },
		"OtherTenant":        func(_ *GuestSession, _ *Invitation, t *Task) { t.Tenant = "t2" },
	} {
		s, inv, task := live()
		breakIt(&s, &inv, &task)
		if GuestSessionLive(s, inv, task, now) {
			t.Errorf("%s: the session is still live", name)
		}
	}
}

func TestGuestActorHoldsOnlyItsGrant(t *testing.T) {
	s := GuestSession{Tenant: "t1", TaskID: "task-1", InvitationID: "inv-1", Capabilities: []string{"Approve"}}
	a := GuestActor(s)
	s.Capabilities[0] = "Reject"
	if a.Guest == nil || a.Guest.TaskID != "task-1" || a.Guest.AllowedActions[0] != "Approve" || a.Manager || a.System ||
		len(a.Permissions) != 0 || !a.Subject.Same(GuestRef("t1", "inv-1")) {
		t.Fatalf("actor %+v", a)
	}
}
