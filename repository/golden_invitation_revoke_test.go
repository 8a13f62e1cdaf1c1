package repository

import (
	"testing"
	"time"

	"usertasks/models"
)

// invitationRevokeScenarios are the golden SQL of revoking an invitation and of the managers'
// delivery listing (invitation_revoke.go).
func invitationRevokeScenarios() []goldenScenario {
	revoke := func(now time.Time, t models.Task, inv models.Invitation) (models.Event, error) {
		return models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq + 1, Revision: t.Revision,
			Type: models.EventInvitationRevoked, OccurredAt: now, Actor: goldenPtr(goldenUser("u1"))}, nil
	}
	return []goldenScenario{
		{"revoke-invitation", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			after := task
			after.LastEventSeq++
			inv := goldenInvitation(task)
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}, "user_task_invitations": {{g.invitationRecord(inv)}}}.rows})
			got, err := g.s.RevokeInvitation(g.ctx, "t1", task.ID, inv.ID, revoke)
			goldenOK(t, err)
			if got.Status != models.InvitationRevoked {
				t.Fatalf("got %+v", got)
			}
		}},
		{"revoke-invitation-not-revocable", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			after := task
			after.LastEventSeq++
			inv := goldenInvitation(task)
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}, "user_task_invitations": {{g.invitationRecord(inv)}}}.rows,
				Affected: goldenAffected{"UPDATE user_task_invitations": {0}}.rows})
			_, err := g.s.RevokeInvitation(g.ctx, "t1", task.ID, inv.ID, revoke)
			goldenCode(t, err, models.CodeInvitationNotRevocable)
		}},
		{"invitation-deliveries", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			d := g.deliveryRecord(goldenDelivery(goldenInvitation(task)))
			g.answer(fakeScript{Rows: goldenRows{"user_task_deliveries": {{d}}}.rows})
			got, err := g.s.InvitationDeliveries(g.ctx, "t1", task.ID)
			goldenOK(t, err)
			if len(got) != 1 || got[0].Payload != nil {
				t.Fatalf("got %+v", got)
			}
		}},
	}
}
