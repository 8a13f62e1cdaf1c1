package stress_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"usertasks/stress"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// TestNotifyMode runs the notification storm small (20 tasks for a group of 5) on each
// store and asserts its exact counts: every group row expanded, 100 member rows shown, 40
// single mails for the two members who want them, 60 rows for the three members' digests, one
// digest each. The p95 ratio is printed, never judged.
func TestNotifyMode(t *testing.T) {
	run := func(t *testing.T, o stress.Options) stress.Report {
		t.Helper()
		var progress, out bytes.Buffer
		o.Tasks, o.Writers, o.Members, o.Progress = 20, 3, 5, &progress
		reports, err := stress.Run(context.Background(), stress.NotifyMode, o)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, progress.String())
		}
		r := reports[0]
		r.Print(&out)
		t.Log(out.String())
		if !r.OK {
			t.Fatal("invariants failed")
		}
		want := map[string]string{
			"notify: member rows shown": "100", "notify: mails sent": "40", "notify: mails left for the digest": "60",
			"notify: unread rows in the members' in-app lists": "100", "notify: digest mails (one per digest member)": "3",
			"notify: rows in the digests": "60",
		}
		for _, c := range r.Checks {
			if w, ok := want[c.Name]; ok {
				if c.Got != w {
					t.Errorf("%s: got %s, want %s", c.Name, c.Got, w)
				}
				delete(want, c.Name)
			}
		}
		if len(want) > 0 {
			t.Errorf("checks missing from the report: %v", want)
		}
		if len(r.Figures) != 3 || r.Figures[0].Ops != 20 || r.Figures[1].Ops != 20 || r.Figures[2].Applied != 100 {
			t.Errorf("figures %+v: want the 20 projections of each phase and the 100 member rows delivered", r.Figures)
		}
		if !strings.Contains(strings.Join(r.Notes, "\n"), "notifications on / off") {
			t.Errorf("notes %q: no p95 ratio", r.Notes)
		}
		return r
	}
	t.Run("SQLite", func(t *testing.T) {
		s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
		r := run(t, stress.Options{Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, SQL: s})
		counted := false
		for _, c := range r.Checks {
			counted = counted || (c.Name == "notify: rows counted: member rows done and shown" && c.Got == "100")
		}
		if !counted {
			t.Error("the rows were not counted in the table")
		}
	})
	t.Run("DocumentStore", func(t *testing.T) {
		s := testfactory.OpenStore(t, testfactory.Mongo, nil)
		run(t, stress.Options{Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, Database: "mongodb"})
	})
}

// The notify mode's worker would take real tenants' notifications: it refuses a database
// that holds any.
func TestNotifyModeRefusesARealDatabase(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	_, _, err := workflow.NewProjector(s, nil).Project(context.Background(), "acme", workflow.ProjectionRequest{
		BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: "d", WorkflowInstanceID: "i", ActivityInstanceID: "a", BookmarkID: "b"},
		Task:         workflow.TaskDefinition{Title: "Real work", CandidateGroups: []workflow.Participant{{ID: "finance"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = stress.Run(context.Background(), stress.NotifyMode, stress.Options{Tasks: 2, Target: stress.NewStoreTarget(s),
		Inspector: stress.StoreInspector{Store: s}, Store: s, SQL: s})
	if !errors.Is(err, stress.ErrNotScratch) {
		t.Fatalf("err %v, want ErrNotScratch", err)
	}
	n, err := s.UnreadNotifications(context.Background(), "acme", testfactory.User("acme", "x"), 0)
	if err != nil || n != 0 {
		t.Fatalf("unread %d, %v", n, err)
	}
}
