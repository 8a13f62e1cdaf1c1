package tasks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// TestDelegationRefusesGuests: a guest session's actor — even the guest assignee, even holding
// grants — delegates, returns and keeps absences never (403), and nothing is written.
func TestDelegationRefusesGuests(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := testfactory.Task(ctx, t, f.store, &testfactory.TaskOpts{Tenant: "t1", Assignee: "ann"})
	guest := models.Actor{Tenant: "t1", Subject: models.GuestRef("t1", "inv-1"), Permissions: []string{"user-tasks:*"},
		Guest: &models.GuestGrant{TaskID: task.ID, InvitationID: "inv-1", AllowedActions: []string{models.ActionComplete}}}
	common := tasks.Common{ExpectedRevision: task.Revision}

	_, err := f.svc.Delegate(ctx, guest, task.ID, tasks.DelegateInput{Common: common, To: models.ParticipantRef{ID: "ben"}})
	wantForbidden(t, "delegate", err)
	_, err = f.svc.Return(ctx, guest, task.ID, tasks.ReturnInput{Common: common})
	wantForbidden(t, "return", err)
	now := time.Now()
	_, err = f.svc.PutAbsence(ctx, guest, nil, tasks.AbsenceInput{From: now, Until: now.Add(time.Hour), Substitute: models.ParticipantRef{ID: "ben"}})
	wantForbidden(t, "put absence", err)
	_, err = f.svc.Absence(ctx, guest, nil)
	wantForbidden(t, "absence", err)
	wantForbidden(t, "delete absence", f.svc.DeleteAbsence(ctx, guest, nil))

	got, err := f.store.Get(ctx, "t1", task.ID)
	if err != nil || got.Revision != task.Revision || got.DelegatedBy != nil {
		t.Fatalf("task after the guest's calls: revision %d delegatedBy %v (%v)", got.Revision, got.DelegatedBy, err)
	}
}

func wantForbidden(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, models.ErrForbidden) {
		t.Errorf("%s by a guest: %v, want forbidden", what, err)
	}
}
