package repository

import (
	"testing"
	"time"

	"usertasks/models"
)

// goldenCommentRecord is a stored comment by u1 on t.
func (g *goldenEnv) commentRecord(t models.Task, id, text string) *commentRecord {
	c := models.Comment{ID: id, Tenant: t.Tenant, TaskID: t.ID, Author: goldenUser("u1"), Text: text, CreatedAt: goldenNow.Add(-time.Minute)}
	rec, err := g.s.codec().CommentRow(&c)
	if err != nil {
		panic(err)
	}
	return &commentRecord{rec}
}

// commentScenarios are the statements of comments (comment.go): the task's row locked by
// taking its event sequence, its assignment read, the count, the insert, the event and the
// notifications; the list's keyset page; the erase.
func commentScenarios() []goldenScenario {
	author := goldenUser("u1")
	actor := models.Actor{Tenant: "t1", Subject: author, DisplayName: "U1", Permissions: []string{"user-tasks:*"}}
	boss := models.Actor{Tenant: "t1", Subject: goldenUser("u9"), Permissions: []string{"user-tasks:*"}, Manager: true}
	return []goldenScenario{
		{"add-comment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{Assignee: "u2", CandidateUsers: []string{"u1", "u2"}})
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}}.rows, Count: func(string, int) int64 { return 3 }})
			const id = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
			c, err := g.s.AddComment(g.ctx, "t1", task.ID, id, func(now time.Time, cur models.Task, count int) (models.Comment, models.Event, error) {
				if count != 3 {
					t.Fatalf("count %d, want 3", count)
				}
				return models.AddComment(cur, actor, id, "Is this the right IBAN, @u3?", count, now)
			})
			goldenOK(t, err)
			if c.ID != id || len(c.Mentions) != 1 {
				t.Fatalf("added %+v", c)
			}
		}},
		{"add-comment-replayed", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			const id = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c"
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(task)}}, "user_task_comments": {{g.commentRecord(task, id, "first")}}}.rows})
			c, err := g.s.AddComment(g.ctx, "t1", task.ID, id, func(time.Time, models.Task, int) (models.Comment, models.Event, error) {
				t.Fatal("a replay decided again")
				return models.Comment{}, models.Event{}, nil
			})
			goldenOK(t, err)
			if c.Text != "first" {
				t.Fatalf("replayed %+v", c)
			}
		}},
		{"list-comments-after-cursor", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			g.answer(fakeScript{Rows: goldenRows{"user_task_comments": {{g.commentRecord(task, "c1", "one"), g.commentRecord(task, "c2", "two")}}}.rows})
			p, err := g.s.Comments(g.ctx, models.CommentQuery{Tenant: "t1", TaskID: task.ID, Limit: 1,
				After: &models.CommentCursor{CreatedAt: goldenNow.Add(-time.Hour), ID: "c0"}})
			goldenOK(t, err)
			if len(p.Items) != 1 || p.Next == nil || p.Items[0].Text != "one" {
				t.Fatalf("page %+v", p)
			}
		}},
		{"delete-comment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}, "user_task_comments": {{g.commentRecord(task, "c1", "secret")}}}.rows})
			c, err := g.s.DeleteComment(g.ctx, "t1", task.ID, "c1", func(now time.Time, cur models.Task, c models.Comment) (models.Event, error) {
				return models.DeleteComment(cur, boss, c, now)
			})
			goldenOK(t, err)
			if c.DeletedAt == nil || c.Text != "" {
				t.Fatalf("deleted %+v", c)
			}
		}},
	}
}
