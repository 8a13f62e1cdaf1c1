package testfactory_test

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// Every dialect gets its own fresh, migrated database; a task goes through the projection path.
func TestEachStoreProjectsTasks(t *testing.T) {
	ctx := context.Background()
	testfactory.EachStore(t, nil, func(t *testing.T, s store.Store) {
		task := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Assignee: "ann", Groups: []string{"finance"}})
		if task.Tenant != "t1" || task.Status != models.StatusAssigned || task.Revision != 1 {
			t.Fatalf("got tenant %q status %s revision %d, want t1 assigned 1", task.Tenant, task.Status, task.Revision)
		}
		page, err := s.Query(ctx, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll,
			Actor: testfactory.Manager("t1", "boss"), IncludeTotal: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := *page.Total; got != 1 {
			t.Fatalf("a fresh database holds %d tasks after one projection, want 1", got)
		}
		if got := testfactory.Finalize(ctx, t, s, task); got.Revision <= task.Revision {
			t.Fatalf("finalize left revision %d, want past %d", got.Revision, task.Revision)
		}
	})
}

// The Projection hook adjusts what the options do not cover.
func TestTaskProjectionHook(t *testing.T) {
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	task := testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{Tenant: "t2",
		Projection: func(p *models.Projection) { p.Reference = "INV-1" }})
	if task.Tenant != "t2" || task.Reference != "INV-1" {
		t.Fatalf("got tenant %q reference %q, want t2 INV-1", task.Tenant, task.Reference)
	}
}

// Clock moves the store's database clock.
func TestClockAdvances(t *testing.T) {
	var c testfactory.Clock
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.Advance(time.Hour)
	if got, want := c.Now(at), at.Add(time.Hour); !got.Equal(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Actors carry what their tokens would resolve to.
func TestActors(t *testing.T) {
	if a := testfactory.Worker("t1", "ann", "finance"); a.Manager || len(a.Groups) != 1 || !models.ActorCan(a, models.PermClaim) {
		t.Fatalf("worker %+v", a)
	}
	if a := testfactory.Manager("t1", "boss"); !a.Manager {
		t.Fatalf("manager %+v", a)
	}
	if a := testfactory.Guest("t1", "inv-1", "task-1", "Approve"); a.Guest == nil || a.Guest.TaskID != "task-1" {
		t.Fatalf("guest %+v", a)
	}
	if a := testfactory.RuntimeUser("t1"); !models.ActorCan(a, models.PermRuntimeWrite) || models.ActorCan(a, models.PermView) {
		t.Fatalf("runtime user %+v", a)
	}
}
