package repository

import (
	"testing"
)

// invitationExpiryScenarios: the delivery worker's expiry sweep (ExpireInvitations).
func invitationExpiryScenarios() []goldenScenario {
	return []goldenScenario{
		{"expire-invitations", func(t *testing.T, g *goldenEnv) {
			a, b := goldenInvitation(g.task(goldenTaskOpts{})), goldenInvitation(g.task(goldenTaskOpts{}))
			g.answer(fakeScript{Rows: goldenRows{"user_task_invitations": {{g.invitationRecord(a), g.invitationRecord(b)}}}.rows,
				Affected: goldenAffected{"UPDATE user_task_invitations": {2}}.rows})
			got, err := g.s.ExpireInvitations(g.ctx, 200)
			goldenOK(t, err)
			if got["t1"] != 2 || len(got) != 1 {
				t.Fatalf("expired %v", got)
			}
		}},
		{"expire-invitations-none", func(t *testing.T, g *goldenEnv) {
			got, err := g.s.ExpireInvitations(g.ctx, 200)
			goldenOK(t, err)
			if len(got) != 0 {
				t.Fatalf("expired %v", got)
			}
		}},
	}
}
