package repository

import (
	"testing"
	"time"

	"usertasks/models"
)

// goldenDeadline is a pending start deadline of t, due a minute before goldenNow: reassign to
// g2, raise the priority, tell u5.
func goldenDeadline(t models.Task, index int) models.Deadline {
	p := 90
	return models.Deadline{Tenant: t.Tenant, TaskID: t.ID, Index: index, Kind: models.DeadlineStart, DueAt: goldenNow.Add(-time.Minute),
		State: models.DeadlinePending, Actions: []models.DeadlineAction{
			{Type: models.DeadlineReassign, CandidateGroups: []models.ParticipantRef{goldenGroup("g2")}},
			{Type: models.DeadlineSetPriority, Priority: &p},
			{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{goldenUser("u5")}}},
		}}
}

func goldenDeadlineRecord(d models.Deadline) *deadlineRecord {
	row, err := sqlCodec.DeadlineRow(&d, goldenNow.Add(-time.Hour))
	if err != nil {
		panic(err)
	}
	return &deadlineRecord{row}
}

// deadlineScenarios are the statements of deadlines (deadline*.go): written with the task,
// walked by ix_deadlines_due, settled once under the task's lock.
func deadlineScenarios() []goldenScenario {
	available := goldenTaskOpts{CandidateUsers: []string{"u1"}, CandidateGroups: []string{"g1"}, Excluded: []string{"u9"}}
	return []goldenScenario{
		{"create-with-deadlines", func(t *testing.T, g *goldenEnv) {
			c := g.change(available)
			c.Deadlines = []models.Deadline{goldenDeadline(c.Task, 0), goldenDeadline(c.Task, 1)}
			g.answer(fakeScript{Count: goldenCounts{"user_task_tenants": {1}}.count, Rows: g.stripes(0).rows})
			_, created, err := g.s.Create(g.ctx, c.Task.Tenant, c.Task.MaterializationKey, c.Task.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
				c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
				return c, nil
			})
			goldenOK(t, err)
			if !created {
				t.Fatal("not created")
			}
		}},
		{"due-deadlines", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			d := goldenDeadline(task, 0)
			g.answer(fakeScript{Rows: goldenRows{"user_task_deadlines": {{goldenDeadlineRecord(d)}}}.rows})
			k := d.Key()
			got, err := g.s.DueDeadlines(g.ctx, 50, &k)
			goldenOK(t, err)
			if len(got) != 1 {
				t.Fatalf("got %+v", got)
			}
		}},
		{"task-deadlines", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			g.answer(fakeScript{Rows: goldenRows{"user_task_deadlines": {{goldenDeadlineRecord(goldenDeadline(task, 0))}}}.rows})
			_, err := g.s.TaskDeadlines(g.ctx, "t1", task.ID)
			goldenOK(t, err)
		}},
		{"fire-deadline", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			rows := g.storedAnswers(task)
			rows["user_task_deadlines"] = [][]any{{goldenDeadlineRecord(goldenDeadline(task, 0))}}
			g.answer(fakeScript{Rows: rows.rows})
			f, err := g.s.FireDeadline(g.ctx, "t1", task.ID, 0, []models.ParticipantRef{goldenUser("u4")})
			goldenOK(t, err)
			if !f.StateChanged {
				t.Fatalf("got %+v, want a state change", f)
			}
		}},
		{"fire-deadline-notify-only", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			d := goldenDeadline(task, 0)
			d.Actions = d.Actions[2:]
			rows := g.storedAnswers(task)
			rows["user_task_deadlines"] = [][]any{{goldenDeadlineRecord(d)}}
			g.answer(fakeScript{Rows: rows.rows})
			f, err := g.s.FireDeadline(g.ctx, "t1", task.ID, 0, nil)
			goldenOK(t, err)
			if f.StateChanged || f.Change == nil {
				t.Fatalf("got %+v, want the event only", f)
			}
		}},
		{"fire-deadline-settled-meanwhile", func(t *testing.T, g *goldenEnv) {
			task := g.task(available)
			rows := g.storedAnswers(task)
			rows["user_task_deadlines"] = [][]any{{goldenDeadlineRecord(goldenDeadline(task, 0))}}
			g.answer(fakeScript{Rows: rows.rows, Affected: goldenAffected{"UPDATE user_task_deadlines": {0}}.rows})
			_, err := g.s.FireDeadline(g.ctx, "t1", task.ID, 0, nil)
			if models.ErrorCode(err) != models.CodeDeadlineSettled {
				t.Fatalf("got %v, want deadline-settled", err)
			}
		}},
	}
}
