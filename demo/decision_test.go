package demo_test

import (
	"context"
	"strings"
	"testing"

	"usertasks/demo"
	"usertasks/forms"
	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// seededTasks seeds the demo into a fresh SQLite store and returns every task of both tenants.
func seededTasks(t *testing.T) []models.Task {
	t.Helper()
	ctx := context.Background()
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	if err := demo.Seed(ctx, s, workflow.NewProjector(s, workflow.NewResolver(demo.ResolverOptions()))); err != nil {
		t.Fatalf("seed: %v", err)
	}
	var all []models.Task
	for _, tenant := range []string{"acme", "globex"} {
		page, err := s.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll, Actor: models.Actor{Tenant: tenant, Manager: true}, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range page.Items {
			task, err := s.Get(ctx, tenant, item.ID)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, task)
		}
	}
	return all
}

// TestSeededDecisionsAskOnce: the rule of docs/forms.md ("Decisions: actions or a field, not
// both"). A seeded task with two or more actions has no form field that chooses the outcome
// again: no field named decision or outcome, and no enum whose options name one of the actions.
// (INV-1042 had a radio approve/reject beside the Approve and Reject buttons: "reject" with the
// Approve button was recorded as approved.)
func TestSeededDecisionsAskOnce(t *testing.T) {
	checked := 0
	for _, task := range seededTasks(t) {
		if len(task.Actions) < 2 || !task.Protected.Form.Resolved() {
			continue
		}
		form, err := forms.Parse(task.Protected.Form.Schema)
		if err != nil {
			t.Fatalf("%s: %v", task.Reference, err)
		}
		checked++
		for _, f := range form.Fields() {
			if k := strings.ToLower(f.Key); k == "decision" || k == "outcome" {
				t.Errorf("%s (%s): actions %v and a %q field ask for the decision twice", task.Title, task.Reference, task.Actions, f.Key)
			}
			for _, o := range f.Options {
				for _, a := range task.Actions {
					if strings.EqualFold(o, a.Key) || strings.EqualFold(o, a.Label) {
						t.Errorf("%s (%s): field %q offers %q, which is also the action %q", task.Title, task.Reference, f.Key, o, a.Key)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no seeded task has both actions and a form; the check checks nothing")
	}
}

// TestSeededInvitationTasks: acme has at least three open tasks a manager can invite a guest
// to, so the guest journey can be walked again after one of them (TRV-88) is completed; globex
// has one too.
func TestSeededInvitationTasks(t *testing.T) {
	open := map[string][]string{}
	for _, task := range seededTasks(t) {
		if task.Status.IsOpen() && len(task.Protected.InvitationDefinitions) > 0 {
			open[task.Tenant] = append(open[task.Tenant], task.Reference)
		}
	}
	if len(open["acme"]) < 3 || len(open["globex"]) < 1 {
		t.Fatalf("open tasks with invitation definitions: %v, want at least 3 in acme and 1 in globex", open)
	}
}

// TestSeededOptionsHaveTitles: every choice a seeded form offers is shown by a title, never by
// its code (docs/forms.md, "Options people read by name"): EXP-311's decision radio showed
// "approve" and "reject".
func TestSeededOptionsHaveTitles(t *testing.T) {
	checked := 0
	for _, task := range seededTasks(t) {
		if !task.Protected.Form.Resolved() {
			continue
		}
		form, err := forms.Parse(task.Protected.Form.Schema)
		if err != nil {
			t.Fatalf("%s: %v", task.Reference, err)
		}
		for _, f := range form.Fields() {
			if len(f.Options) == 0 {
				continue
			}
			checked++
			if len(f.OptionTitles) != len(f.Options) {
				t.Errorf("%s (%s): field %q shows its codes %v, want a title for each", task.Title, task.Reference, f.Key, f.Options)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no seeded form offers a choice; the check checks nothing")
	}
}
