package repository

import (
	"testing"
	"time"

	"usertasks/models"
)

// purgeScenarios are the retention purge's statements (purge.go).
func purgeScenarios() []goldenScenario {
	every := models.RetentionPolicy{TerminalAge: 90 * 24 * time.Hour, InvitationAge: 30 * 24 * time.Hour,
		GuestSessionAge: 7 * 24 * time.Hour, OutboxAge: 7 * 24 * time.Hour, PageSize: 500}
	return []goldenScenario{
		{"purge-dry-run", func(t *testing.T, g *goldenEnv) {
			dry := every
			dry.DryRun = true
			_, err := g.s.Purge(g.ctx, "t1", dry, nil)
			goldenOK(t, err)
		}},
		{"purge-nothing-due", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.Purge(g.ctx, "t1", every, nil)
			goldenOK(t, err)
		}},
		{"purge-terminal-page", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{Status: models.StatusCompleted})
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(task)}}}.rows})
			got, err := g.s.Purge(g.ctx, "t1", models.RetentionPolicy{TerminalAge: 90 * 24 * time.Hour, PageSize: 2}, nil)
			goldenOK(t, err)
			if got.Tasks != 1 {
				t.Fatalf("purged %+v", got)
			}
		}},
	}
}
