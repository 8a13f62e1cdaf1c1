package repository

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// Golden scenarios of default deadline policies (deadline_policy.go) and of a creation that
// applies one.

func goldenPolicy() models.DeadlinePolicy {
	p, err := models.NewDeadlinePolicy("t1", "approval", []models.DeadlineDefinition{
		{Kind: models.DeadlineStart, After: "PT4H", Actions: []models.DeadlineAction{
			{Type: models.DeadlineReassign, CandidateGroups: []models.ParticipantRef{goldenGroup("g2")}}, {Type: models.DeadlineFlag}}},
	}, goldenUser("u7"))
	if err != nil {
		panic(err)
	}
	return p
}

// goldenPolicyRecord is the stored row of goldenPolicy at revision.
func goldenPolicyRecord(revision int) *deadlinePolicyRecord {
	p := goldenPolicy()
	row, err := sqlCodec.DeadlinePolicyRow(&p, revision, goldenNow.Add(-time.Hour))
	if err != nil {
		panic(err)
	}
	return &deadlinePolicyRecord{row}
}

func deadlinePolicyScenarios() []goldenScenario {
	policyRows := func(revision int) goldenRows {
		return goldenRows{"user_task_deadline_policies": {{goldenPolicyRecord(revision)}}}
	}
	return []goldenScenario{
		{"deadline-policy", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: policyRows(2).rows})
			p, err := g.s.DeadlinePolicy(g.ctx, "t1", "approval")
			goldenOK(t, err)
			if p.Revision != 2 || len(p.Deadlines) != 1 {
				t.Fatalf("got %+v", p)
			}
		}},
		{"put-deadline-policy-new", func(t *testing.T, g *goldenEnv) {
			p, err := g.s.PutDeadlinePolicy(g.ctx, goldenPolicy(), 0)
			goldenOK(t, err)
			if p.Revision != 1 || !p.UpdatedAt.Equal(goldenNow) {
				t.Fatalf("got %+v", p)
			}
		}},
		{"put-deadline-policy-update", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: policyRows(2).rows})
			p, err := g.s.PutDeadlinePolicy(g.ctx, goldenPolicy(), 2)
			goldenOK(t, err)
			if p.Revision != 3 {
				t.Fatalf("got %+v", p)
			}
		}},
		{"delete-deadline-policy", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: policyRows(2).rows})
			goldenOK(t, g.s.DeleteDeadlinePolicy(g.ctx, "t1", "approval", 2, goldenUser("u7")))
		}},
		{"deadline-policies", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: policyRows(1).rows})
			got, err := g.s.DeadlinePolicies(g.ctx, "t1", "aaa", 50)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("got %+v", got)
			}
		}},
		{"deadline-policy-audit", func(t *testing.T, g *goldenEnv) {
			row := goldenPolicyRecord(1).DeadlinePolicyRow
			audit := &policyAuditRecord{storekit.PolicyAuditRow(row, models.DeadlinePolicyPut)}
			g.answer(fakeScript{Rows: goldenRows{"user_task_policy_audit": {{audit}}}.rows})
			got, err := g.s.DeadlinePolicyAudit(g.ctx, "t1", "approval", 50)
			goldenOK(t, err)
			if len(got) != 1 || got[0].Action != models.DeadlinePolicyPut {
				t.Fatalf("got %+v", got)
			}
		}},
		{"create-with-deadline-policy", func(t *testing.T, g *goldenEnv) {
			c := g.change(goldenTaskOpts{CandidateGroups: []string{"g1"}})
			c.DefaultDeadlines = true
			rows := g.stripes(0)
			rows["user_task_deadline_policies"] = [][]any{{goldenPolicyRecord(1)}}
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: rows.rows})
			task, created, err := g.s.Create(g.ctx, c.Task.Tenant, c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
				c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
				return c, nil
			})
			goldenOK(t, err)
			if !created || task.ID != c.Task.ID {
				t.Fatal("not created")
			}
		}},
	}
}
