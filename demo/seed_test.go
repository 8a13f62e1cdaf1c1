package demo_test

import (
	"context"
	"testing"
	"time"

	"usertasks/demo"
	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workflow"
)

func TestSeed(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	p := workflow.NewProjector(store, workflow.NewResolver(demo.ResolverOptions()))

	if err := demo.Seed(ctx, store, p); err != nil {
		t.Fatalf("first seed: %v", err)
	}
	acme, globex := testfactory.CountTasks(ctx, t, store, "acme"), testfactory.CountTasks(ctx, t, store, "globex")
	if acme+globex < 12 || acme == 0 || globex == 0 {
		t.Fatalf("seeded %d acme + %d globex tasks, want a dozen over both", acme, globex)
	}

	t.Run("SecondRunWritesNothing", func(t *testing.T) {
		if err := demo.Seed(ctx, store, p); err != nil {
			t.Fatalf("second seed: %v", err)
		}
		if a, g := testfactory.CountTasks(ctx, t, store, "acme"), testfactory.CountTasks(ctx, t, store, "globex"); a != acme || g != globex {
			t.Errorf("second seed: %d + %d tasks, want %d + %d", a, g, acme, globex)
		}
	})

	t.Run("Variety", func(t *testing.T) {
		var all []models.Task
		for _, tenant := range []string{"acme", "globex"} {
			page, err := store.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll, Actor: models.Actor{Tenant: tenant, Manager: true}, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range page.Items {
				task, err := store.Get(ctx, tenant, item.ID)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, task)
			}
		}
		now := time.Now()
		has := map[string]bool{}
		for _, task := range all {
			has["status:"+string(task.Status)] = true
			if task.Health.Code != "" {
				has["health:"+task.Health.Code] = true
			}
			for _, c := range task.Assignment.Candidates {
				has["candidate:"+string(c.Source)] = true
			}
			if len(task.Assignment.Exclusions) > 0 {
				has["exclusions"] = true
			}
			if task.TimeoutEnabled {
				has["timeout"] = true
			}
			if task.DueAt != nil && task.DueAt.Before(now) {
				has["overdue"] = true
			}
			if task.DueAt != nil && task.DueAt.After(now) && task.DueAt.Before(now.Add(4*time.Hour)) {
				has["due-soon"] = true
			}
			if f := task.Protected.Form; f.Resolved() {
				if f.Requested == nil {
					has["form:inline"] = true
				} else {
					has["form:"+f.Provider] = true
				}
			}
			if len(task.Protected.InvitationDefinitions) > 0 {
				has["invitations"] = true
			}
		}
		for _, want := range []string{
			"status:Assigned", "status:Available", "status:Unassigned",
			"candidate:direct-user", "candidate:direct-group", "candidate:snapshot-member",
			"exclusions", "timeout", "overdue", "due-soon", "form:inline", "form:" + demo.FormProvider,
			"invitations", "health:" + models.HealthFormProviderMissing, "health:" + models.HealthNoParticipants,
		} {
			if !has[want] {
				t.Errorf("the demo has no task with %s", want)
			}
		}
		if has["health:"+models.HealthSnapshotDirectoryMissing] || has["health:"+models.HealthSnapshotResolutionFailed] {
			t.Error("a demo snapshot group did not expand")
		}
	})

	t.Run("Users", func(t *testing.T) {
		managers := map[string]int{}
		for _, u := range demo.Users {
			a := u.Actor()
			if u.Manager {
				managers[u.Tenant]++
				if !models.ActorCan(a, models.PermSupervise) {
					t.Errorf("manager %s cannot supervise", u.ID)
				}
			}
			if !models.ActorCan(a, models.PermView) || !models.ActorCan(a, models.PermComplete) {
				t.Errorf("%s cannot view and complete", u.ID)
			}
			members, err := demo.Directory.Search(ctx, u.Tenant, u.ID, models.UserParticipant, 10)
			if err != nil || len(members) == 0 {
				t.Errorf("%s is not in the demo directory", u.ID)
			}
		}
		for _, tenant := range []string{"acme", "globex"} {
			if managers[tenant] == 0 {
				t.Errorf("tenant %s has no manager", tenant)
			}
		}
		if err := demo.Directory.Check(); err != nil {
			t.Errorf("demo directory: %v", err)
		}
	})
}

func TestSeedSkipsAFilledDatabase(t *testing.T) {
	ctx := context.Background()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	p := workflow.NewProjector(store, workflow.NewResolver(demo.ResolverOptions()))
	if _, _, err := p.Project(ctx, "acme", workflow.ProjectionRequest{
		BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: "invoice", WorkflowInstanceID: models.NewID(),
			ActivityInstanceID: "approve", BookmarkID: models.NewID()},
		Task: workflow.TaskDefinition{Title: "Approve invoice"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := demo.Seed(ctx, store, p); err != nil {
		t.Fatal(err)
	}
	if a, g := testfactory.CountTasks(ctx, t, store, "acme"), testfactory.CountTasks(ctx, t, store, "globex"); a != 1 || g != 0 {
		t.Errorf("seed into a filled database wrote %d + %d tasks, want 1 + 0", a, g)
	}
}
