package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/store"
)

// saveView stores a view of a with the given name and query.
func saveView(t *testing.T, s store.Store, a models.Actor, name string, shared bool) models.SavedView {
	t.Helper()
	v, err := s.CreateSavedView(ctx(t), models.SavedView{Tenant: a.Tenant, Owner: a.Subject, Name: name, Query: "tab=all&sort=due", Shared: shared})
	if err != nil {
		t.Fatalf("save view %q: %v", name, err)
	}
	return v
}

func viewNames(vs []models.SavedView) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var ve *models.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) == 0 || ve.Fields[0].Field != field {
		t.Fatalf("err %v, want a validation error of %s", err, field)
	}
}

// testSavedViews checks saved inbox views: round trip, case-insensitive unique names per owner,
// the per-owner limit, who sees, renames and deletes which view, and tenant isolation.
func testSavedViews(t *testing.T, h Harness) {
	ann := queryActor("t1", "ann", false)
	bob := queryActor("t1", "bob", false)
	boss := queryActor("t1", "boss", true)
	chief := queryActor("t1", "chief", true)
	other := queryActor("t2", "boss", true) // a manager of the same name in another tenant

	t.Run("RoundTrip", func(t *testing.T) {
		s := h.open(t, Options{})
		got := saveView(t, s, boss, "Überfällig · Finance ✓", true)
		if got.ID == "" || got.CreatedAt.IsZero() || !got.UpdatedAt.Equal(got.CreatedAt) {
			t.Fatalf("saved %+v: want an id and equal times", got)
		}
		read, err := s.SavedView(ctx(t), boss, got.ID)
		if err != nil {
			t.Fatal(err)
		}
		if read.Name != got.Name || read.Query != "tab=all&sort=due" || !read.Shared || !read.Owner.Same(models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "boss"}) ||
			read.Owner.DisplayName != "User boss" || !read.CreatedAt.Equal(got.CreatedAt) {
			t.Fatalf("read %+v, want %+v", read, got)
		}
	})

	t.Run("NameUniquePerOwnerCaseInsensitively", func(t *testing.T) {
		s := h.open(t, Options{})
		saveView(t, s, ann, "Urgent", false)
		_, err := s.CreateSavedView(ctx(t), models.SavedView{Tenant: "t1", Owner: ann.Subject, Name: "URGENT", Query: "tab=history"})
		wantField(t, err, "name")
		saveView(t, s, bob, "urgent", false) // another owner may use it
		saveView(t, s, other, "Urgent", false)
		v := saveView(t, s, ann, "Later", false)
		_, err = s.RenameSavedView(ctx(t), ann, v.ID, "uRGENT")
		wantField(t, err, "name")
		renamed, err := s.RenameSavedView(ctx(t), ann, v.ID, "later") // its own name in another case
		if err != nil || renamed.Name != "later" {
			t.Fatalf("rename to another case: %+v, %v", renamed, err)
		}
	})

	t.Run("RefusesInvalidNames", func(t *testing.T) {
		s := h.open(t, Options{})
		for _, name := range []string{"", "a\x00b", "tab\tname", "\u202eevil", strings.Repeat("x", 81)} {
			_, err := s.CreateSavedView(ctx(t), models.SavedView{Tenant: "t1", Owner: ann.Subject, Name: name, Query: "tab=all"})
			wantField(t, err, "name")
		}
		_, err := s.CreateSavedView(ctx(t), models.SavedView{Tenant: "t1", Owner: ann.Subject, Name: "big", Query: strings.Repeat("q", models.MaxSavedViewQuerySize+1)})
		wantField(t, err, "query")
		saveView(t, s, ann, strings.Repeat("ß", 80), false) // 80 characters, 160 bytes
	})

	t.Run("AtMost50PerOwner", func(t *testing.T) {
		s := h.open(t, Options{})
		for i := range models.MaxSavedViews {
			saveView(t, s, ann, fmt.Sprintf("View %02d", i), false)
		}
		_, err := s.CreateSavedView(ctx(t), models.SavedView{Tenant: "t1", Owner: ann.Subject, Name: "One more", Query: "tab=all"})
		wantField(t, err, "views")
		saveView(t, s, bob, "Bob's first", false) // the limit is per owner
	})

	t.Run("Visibility", func(t *testing.T) {
		s := h.open(t, Options{})
		annPrivate := saveView(t, s, ann, "Ann private", false)
		bossPrivate := saveView(t, s, boss, "Boss private", false)
		bossShared := saveView(t, s, boss, "Boss shared", true)
		otherShared := saveView(t, s, other, "Other tenant shared", true)

		list := func(a models.Actor) []string {
			t.Helper()
			vs, err := s.SavedViews(ctx(t), a)
			if err != nil {
				t.Fatal(err)
			}
			return viewNames(vs)
		}
		for _, c := range []struct {
			who  string
			a    models.Actor
			want []string
		}{
			{"Owner", ann, []string{"Ann private"}},
			{"PersonSeesNoSharedView", bob, []string{}},
			{"ManagerSeesOwnAndShared", boss, []string{"Boss private", "Boss shared"}},
			{"OtherManagerSeesSharedOnly", chief, []string{"Boss shared"}},
			{"OtherTenant", other, []string{"Other tenant shared"}},
		} {
			if got := list(c.a); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("%s sees %v, want %v", c.who, got, c.want)
			}
		}
		for _, c := range []struct {
			who string
			a   models.Actor
			id  string
		}{
			{"PrivateToAnotherPerson", bob, annPrivate.ID},
			{"PrivateToAManager", boss, annPrivate.ID},
			{"ManagersPrivateToAnotherManager", chief, bossPrivate.ID},
			{"SharedToAPerson", ann, bossShared.ID},
			{"CrossTenant", boss, otherShared.ID},
			{"Missing", boss, models.NewID()},
			{"HostileID", boss, "x/../?#\x00" + strings.Repeat("z", 100)},
		} {
			if _, err := s.SavedView(ctx(t), c.a, c.id); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: err %v, want not found", c.who, err)
			}
		}
		if v, err := s.SavedView(ctx(t), chief, bossShared.ID); err != nil || v.Name != "Boss shared" {
			t.Fatalf("another manager opens a shared view: %+v, %v", v, err)
		}
	})

	t.Run("RenameAndDelete", func(t *testing.T) {
		s := h.open(t, Options{})
		annPrivate := saveView(t, s, ann, "Ann private", false)
		bossShared := saveView(t, s, boss, "Boss shared", true)
		otherShared := saveView(t, s, other, "Other shared", true)

		for _, c := range []struct {
			who string
			a   models.Actor
			id  string
		}{
			{"AnotherPerson", bob, annPrivate.ID},
			{"AManagerRenamesSomeoneElsesShared", chief, bossShared.ID},
			{"CrossTenant", boss, otherShared.ID},
		} {
			if _, err := s.RenameSavedView(ctx(t), c.a, c.id, "Taken over"); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("rename, %s: err %v, want not found", c.who, err)
			}
		}
		for _, c := range []struct {
			who string
			a   models.Actor
			id  string
		}{
			{"AnotherPerson", bob, annPrivate.ID},
			{"AManagerDeletesPrivate", boss, annPrivate.ID},
			{"APersonDeletesShared", ann, bossShared.ID},
			{"CrossTenant", boss, otherShared.ID},
		} {
			if _, err := s.DeleteSavedView(ctx(t), c.a, c.id); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("delete, %s: err %v, want not found", c.who, err)
			}
		}
		renamed, err := s.RenameSavedView(ctx(t), ann, annPrivate.ID, "Ann renamed")
		if err != nil || renamed.Name != "Ann renamed" || renamed.UpdatedAt.Before(renamed.CreatedAt) {
			t.Fatalf("owner renames: %+v, %v", renamed, err)
		}
		if _, err := s.DeleteSavedView(ctx(t), ann, annPrivate.ID); err != nil {
			t.Fatalf("owner deletes: %v", err)
		}
		if _, err := s.DeleteSavedView(ctx(t), chief, bossShared.ID); err != nil {
			t.Fatalf("a manager deletes a shared view: %v", err)
		}
		for _, id := range []string{annPrivate.ID, bossShared.ID} {
			if _, err := s.SavedView(ctx(t), boss, id); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("deleted view %s: err %v, want not found", id, err)
			}
		}
		if _, err := s.SavedView(ctx(t), other, otherShared.ID); err != nil {
			t.Fatalf("the other tenant's view is untouched: %v", err)
		}
	})
}

// testWorkflowChoices checks the inbox's workflow choices: distinct definitions of the tasks
// the scope shows, by id, with a name, never another tenant's.
func testWorkflowChoices(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	me := queryActor("t1", "me", false)
	boss := queryActor("t1", "boss", true)
	CreateTask(t, s, TaskOpts{WorkflowDef: "invoice", WorkflowName: "Invoice approval", Assignee: &me.Subject})
	CreateTask(t, s, TaskOpts{WorkflowDef: "invoice", WorkflowName: "Invoice approval", Assignee: &me.Subject})
	CreateTask(t, s, TaskOpts{WorkflowDef: "hiring", WorkflowName: "Hiring", CandidateUsers: []string{"me"}})
	CreateTask(t, s, TaskOpts{WorkflowDef: "audit"})
	CreateTask(t, s, TaskOpts{Tenant: "t2", WorkflowDef: "secret", WorkflowName: "Other tenant"})

	choices := func(a models.Actor, scope models.Scope, limit int) []string {
		t.Helper()
		got, err := s.WorkflowChoices(ctx(t), models.TaskFilter{Tenant: "t1", Actor: a, Scope: scope}, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, c := range got {
			out = append(out, c.ID+"="+c.Name)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		a     models.Actor
		scope models.Scope
		limit int
		want  []string
	}{
		{"Assigned", me, models.ScopeAssigned, 50, []string{"invoice=Invoice approval"}},
		{"Available", me, models.ScopeAvailable, 50, []string{"hiring=Hiring"}},
		{"History", me, models.ScopeHistory, 50, []string{}},
		{"AllForAManager", boss, models.ScopeAll, 50, []string{"audit=", "hiring=Hiring", "invoice=Invoice approval"}},
		{"AllLimited", boss, models.ScopeAll, 2, []string{"audit=", "hiring=Hiring"}},
		{"NeedsAttention", boss, models.ScopeNeedsAttention, 50, []string{"audit=", "hiring=Hiring", "invoice=Invoice approval"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := choices(c.a, c.scope, c.limit); !slices.Equal(got, c.want) {
				t.Fatalf("choices %v, want %v", got, c.want)
			}
		})
	}
	t.Run("ManagerScopeRefusedToAPerson", func(t *testing.T) {
		_, err := s.WorkflowChoices(ctx(t), models.TaskFilter{Tenant: "t1", Actor: me, Scope: models.ScopeAll}, 50)
		if !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("err %v, want forbidden", err)
		}
	})
}

// testWorkflowChoicePlans checks that the workflow choices of every scope are read through an
// index, on the seeded tables of testQueryPlans.
func testWorkflowChoicePlans(t *testing.T, h Harness, s store.Store, rec *queryRecorder, me, boss models.Actor) {
	for _, c := range []struct {
		scope models.Scope
		a     models.Actor
	}{
		{models.ScopeAssigned, me}, {models.ScopeAvailable, me}, {models.ScopeHistory, me},
		{models.ScopeAll, boss}, {models.ScopeNeedsAttention, boss},
	} {
		t.Run("WorkflowChoices"+strings.ReplaceAll(string(c.scope), "-", "")+"UseAnIndex", func(t *testing.T) {
			rec.reset()
			got, err := s.WorkflowChoices(ctx(t), models.TaskFilter{Tenant: "p1", Scope: c.scope, Actor: c.a}, 50)
			if err != nil {
				t.Fatal(err)
			}
			if c.a.Manager && len(got) < 2 {
				t.Fatalf("%d choices, want the seeded definitions of the tenant", len(got))
			}
			seen := map[string]bool{}
			for _, stmt := range rec.statements() {
				if !strings.Contains(strings.ToUpper(stmt), "USER_TASKS") || seen[stmt] {
					continue
				}
				seen[stmt] = true
				plan := h.SQL.Explain(t, s, stmt)
				if scan := planScan(h.SQL.Dialect, plan); scan != "" {
					t.Fatalf("%s: the plan scans all of user_tasks (%s)\nstatement:\n%s\nplan:\n%s", h.Name, scan, stmt, plan)
				}
			}
		})
	}
}
