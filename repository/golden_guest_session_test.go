package repository

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// Golden scenarios of guest verification and guest sessions (guest_session.go).

func (g *goldenEnv) guestSessionRecord(gs models.GuestSession) *guestSessionRecord {
	row, err := g.s.codec().GuestSessionRow(&gs)
	if err != nil {
		panic(err)
	}
	return &guestSessionRecord{row}
}

func goldenGuestSession(inv models.Invitation) models.GuestSession {
	return models.GuestSession{ID: models.NewID(), Tenant: inv.Tenant, TaskID: inv.TaskID, InvitationID: inv.ID,
		TokenHash: "sh-" + inv.ID, Participant: models.GuestRef(inv.Tenant, inv.ID), Capabilities: inv.AllowedActions,
		IssuedAt: goldenNow, ExpiresAt: goldenNow.Add(4 * time.Hour)}
}

// goldenVerification verifies inv's token; proof decides the presented code.
func goldenVerification(inv models.Invitation, proof bool) store.GuestVerification {
	return store.GuestVerification{
		TokenHash: inv.TokenHash,
		Proof:     func(models.Invitation) bool { return proof },
		Session:   func(time.Time, models.Invitation) models.GuestSession { return goldenGuestSession(inv) },
	}
}

func guestSessionScenarios() []goldenScenario {
	return []goldenScenario{
		{"verify-invitation", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u2"}})
			inv, sib := goldenInvitation(task), goldenInvitation(task)
			inv.SiblingGroupID, sib.SiblingGroupID = "group-1", "group-1"
			after := task
			after.Revision, after.LastEventSeq = task.Revision+1, task.LastEventSeq+2
			rows := g.storedAnswers(task)
			rows["user_tasks"] = [][]any{{g.record(task)}, {g.record(after)}}
			rows["user_task_invitations"] = [][]any{{g.invitationRecord(inv)}, {g.invitationRecord(inv)}, {g.invitationRecord(sib)}}
			g.answer(fakeScript{Rows: rows.rows})
			gs, err := g.s.VerifyInvitation(g.ctx, goldenVerification(inv, true))
			goldenOK(t, err)
			if gs.InvitationID != inv.ID {
				t.Fatalf("session %+v", gs)
			}
		}},
		{"verify-invitation-wrong-code", func(t *testing.T, g *goldenEnv) {
			inv := goldenInvitation(g.task(goldenTaskOpts{CandidateUsers: []string{"u2"}}))
			g.answer(fakeScript{Rows: goldenRows{"user_task_invitations": {{g.invitationRecord(inv)}}}.rows})
			_, err := g.s.VerifyInvitation(g.ctx, goldenVerification(inv, false))
			goldenIs(t, err, models.ErrGuestDenied)
		}},
		{"verify-invitation-last-attempt", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u2"}})
			inv := goldenInvitation(task)
			inv.CodeAttempts = models.MaxCodeAttempts - 1
			rows := g.storedAnswers(task)
			rows["user_task_invitations"] = [][]any{{g.invitationRecord(inv)}}
			g.answer(fakeScript{Rows: rows.rows})
			_, err := g.s.VerifyInvitation(g.ctx, goldenVerification(inv, false))
			goldenIs(t, err, models.ErrGuestDenied)
		}},
		{"guest-access", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u2"}})
			inv := goldenInvitation(task)
			inv.Status = models.InvitationVerified
			gs := goldenGuestSession(inv)
			g.answer(fakeScript{Rows: goldenRows{"user_task_guest_sessions": {{g.guestSessionRecord(gs)}},
				"user_task_invitations": {{g.invitationRecord(inv)}}, "user_tasks": {{g.record(task)}}}.rows})
			got, err := g.s.GuestAccess(g.ctx, gs.TokenHash)
			goldenOK(t, err)
			if got.Session.ID != gs.ID || got.Invitation.ID != inv.ID || got.Task.ID != task.ID {
				t.Fatalf("got %+v", got)
			}
		}},
		{"consume-invitation", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.ConsumeInvitation(g.ctx, "t1", models.NewID()))
		}},
	}
}
