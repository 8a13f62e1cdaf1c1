package tasks_test

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
)

// A substitute lists, reads and claims the tasks where the absent user is a direct candidate
// (SPEC 10.5), and only while the absence is active; the claim records substituteFor.
func TestSubstituteClaimsForTheAbsent(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil) // ann is a direct candidate
	sam := person("sam")
	available := func(t *testing.T) int {
		t.Helper()
		page, err := f.svc.List(ctx, sam, models.TaskFilter{Scope: models.ScopeAvailable, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(page.Items)
	}

	t.Run("ErrNotFoundWithoutAnAbsence", func(t *testing.T) {
		if n := available(t); n != 0 {
			t.Fatalf("sam lists %d tasks, want none", n)
		}
		_, err := f.svc.Detail(ctx, sam, task.ID)
		wantCode(t, err, models.CodeNotFound)
		_, err = f.svc.Claim(ctx, sam, task.ID, tasks.Common{ExpectedRevision: task.Revision})
		wantCode(t, err, models.CodeNotFound)
	})

	now, err := f.store.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := tasks.AbsenceInput{From: now.Add(-time.Minute), Until: now.Add(time.Hour), Substitute: models.ParticipantRef{ID: "sam"}}
	if _, err := f.svc.PutAbsence(ctx, person("ann"), nil, in); err != nil {
		t.Fatal(err)
	}

	t.Run("OK", func(t *testing.T) {
		if n := available(t); n != 1 {
			t.Fatalf("sam lists %d tasks, want ann's one", n)
		}
		if _, err := f.svc.Detail(ctx, sam, task.ID); err != nil {
			t.Fatalf("sam reads the task: %v", err)
		}
		res, err := f.svc.Claim(ctx, sam, task.ID, tasks.Common{ExpectedRevision: task.Revision})
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.store.Get(ctx, "t1", task.ID)
		if err != nil || got.Assignee == nil || got.Assignee.ID != "sam" || res.Revision != got.Revision {
			t.Fatalf("stored assignee %v (%v), want sam", got.Assignee, err)
		}
	})
}
