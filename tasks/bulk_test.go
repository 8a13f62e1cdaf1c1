package tasks_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
)

func bulkItems(ts ...models.Task) []tasks.BulkItem {
	items := make([]tasks.BulkItem, len(ts))
	for i, t := range ts {
		items[i] = tasks.BulkItem{TaskID: t.ID, ExpectedRevision: t.Revision}
	}
	return items
}

type wantItem struct {
	outcome tasks.BulkOutcome
	code    models.Code
	title   string
}

func checkBulk(t *testing.T, got []tasks.BulkItemResult, in tasks.BulkInput, want ...wantItem) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.TaskID != in.Items[i].TaskID || g.Outcome != w.outcome || g.Code != w.code || g.Title != w.title {
			t.Errorf("item %d: %+v, want %+v (task %s)", i, g, w, in.Items[i].TaskID)
		}
	}
}

func TestBulkMixedOutcomes(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	open := f.project(t, func(p *models.Projection) { p.Title = "Open one" })
	stale := f.project(t, func(p *models.Projection) { p.Title = "Stale one" })
	closed := testfactory.Finalize(ctx, t, f.store, f.project(t, func(p *models.Projection) { p.Title = "Closed one" }))
	noCancel := testfactory.Task(ctx, t, f.store, &testfactory.TaskOpts{Title: "Keeps running", Candidates: []string{"ann"}})
	foreign := testfactory.Task(ctx, t, f.store, &testfactory.TaskOpts{Tenant: "t2", Title: "Other tenant", Candidates: []string{"ann"}})
	if _, err := f.svc.UpdateSchedule(ctx, boss(), stale.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: stale.Revision}, Priority: ptr(70)}); err != nil {
		t.Fatal(err)
	}
	in := tasks.BulkInput{Action: tasks.BulkCancel, OperationID: "bulk-1", Reason: "duplicate request",
		Items: append(bulkItems(open, stale, closed, noCancel, foreign), tasks.BulkItem{TaskID: "../x?y#z ü", ExpectedRevision: 1})}
	got, err := f.svc.Bulk(ctx, boss(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := []wantItem{
		{tasks.BulkDone, "", "Open one"},
		{tasks.BulkConflict, models.CodeRevisionConflict, "Stale one"},
		{tasks.BulkRefused, models.CodeTerminal, "Closed one"},
		{tasks.BulkRefused, models.CodeCancellationDisabled, "Keeps running"},
		{tasks.BulkRefused, models.CodeNotFound, ""},
		{tasks.BulkRefused, models.CodeNotFound, ""},
	}
	checkBulk(t, got, in, want...)
	if got[0].Revision != open.Revision+1 || got[1].Revision != stale.Revision+1 {
		t.Errorf("revisions %d, %d; want %d (after cancel), %d (now)", got[0].Revision, got[1].Revision, open.Revision+1, stale.Revision+1)
	}
	if got[4].Revision != 0 {
		t.Errorf("a task of another tenant reported revision %d", got[4].Revision)
	}

	t.Run("ReplayAnswersTheSame", func(t *testing.T) {
		again, err := f.svc.Bulk(ctx, boss(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkBulk(t, again, in, want...)
		if again[0].Revision != got[0].Revision {
			t.Fatalf("replay revision %d, want %d", again[0].Revision, got[0].Revision)
		}
	})
	t.Run("ChangedBodyIsIdempotencyConflict", func(t *testing.T) {
		changed := in
		changed.Reason = "another reason"
		again, err := f.svc.Bulk(ctx, boss(), changed)
		if err != nil {
			t.Fatal(err)
		}
		if again[0].Outcome != tasks.BulkRefused || again[0].Code != models.CodeIdempotencyConflict {
			t.Fatalf("changed body: %+v, want refused idempotency-conflict", again[0])
		}
	})
}

func TestBulkAssignAndSchedule(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.project(t, nil)
	b := f.project(t, nil)

	t.Run("ExcludedAssigneeRefused", func(t *testing.T) {
		in := tasks.BulkInput{Action: tasks.BulkAssign, OperationID: "assign-eve", Items: bulkItems(a, b),
			Assignee: &models.ParticipantRef{Type: models.UserParticipant, ID: "eve"}}
		got, err := f.svc.Bulk(ctx, boss(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkBulk(t, got, in, wantItem{tasks.BulkRefused, models.CodeExcludedAssignee, a.Title},
			wantItem{tasks.BulkRefused, models.CodeExcludedAssignee, b.Title})
	})
	t.Run("AssignDone", func(t *testing.T) {
		in := tasks.BulkInput{Action: tasks.BulkAssign, OperationID: "assign-ann", Items: bulkItems(a, b),
			Assignee: &models.ParticipantRef{Type: models.UserParticipant, ID: "ann"}}
		got, err := f.svc.Bulk(ctx, boss(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkBulk(t, got, in, wantItem{tasks.BulkDone, "", a.Title}, wantItem{tasks.BulkDone, "", b.Title})
		d, err := f.svc.Detail(ctx, boss(), a.ID)
		if err != nil || d.Task.Assignee == nil || d.Task.Assignee.ID != "ann" {
			t.Fatalf("after bulk assign: %+v, %v", d.Task.Assignee, err)
		}
		a.Revision, b.Revision = got[0].Revision, got[1].Revision
	})
	t.Run("ScheduleDone", func(t *testing.T) {
		due := time.Date(2031, 5, 6, 7, 8, 0, 0, time.UTC)
		in := tasks.BulkInput{Action: tasks.BulkSchedule, OperationID: "resched", Items: bulkItems(a, b), Priority: ptr(90), DueAt: &due}
		got, err := f.svc.Bulk(ctx, boss(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkBulk(t, got, in, wantItem{tasks.BulkDone, "", a.Title}, wantItem{tasks.BulkDone, "", b.Title})
		a.Revision = got[0].Revision
		d, _ := f.svc.Detail(ctx, boss(), b.ID)
		if d.Task.Priority != 90 || d.Task.DueAt == nil || !d.Task.DueAt.Equal(due) {
			t.Fatalf("after bulk schedule: priority %d, due %v", d.Task.Priority, d.Task.DueAt)
		}
	})
	t.Run("RetryResolutionDone", func(t *testing.T) {
		in := tasks.BulkInput{Action: tasks.BulkRetryResolution, OperationID: "retry", Items: bulkItems(a)}
		got, err := f.svc.Bulk(ctx, boss(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkBulk(t, got, in, wantItem{tasks.BulkDone, "", a.Title})
	})
}

func TestBulkRefusesTheRequest(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	task := f.project(t, nil)
	ok := tasks.BulkInput{Action: tasks.BulkCancel, OperationID: "op", Reason: "r", Items: bulkItems(task)}

	t.Run("NonManagerForbidden", func(t *testing.T) {
		for name, a := range map[string]models.Actor{
			"worker": person("ann"),
			"guest":  testfactory.Guest("t1", "inv", task.ID, "Complete"),
			"no-cancel": func() models.Actor {
				m := boss()
				m.Permissions = []string{models.PermView, models.PermSupervise}
				return m
			}(),
			"system":      models.SystemActor("t1"),
			"bad-request": person("ann"), // 403 comes before 422
		} {
			in := ok
			if name == "bad-request" {
				in.Items = nil
			}
			if _, err := f.svc.Bulk(ctx, a, in); !errors.Is(err, models.ErrForbidden) {
				t.Errorf("%s: %v, want forbidden", name, err)
			}
		}
	})
	many := make([]tasks.BulkItem, tasks.MaxBulkItems+1)
	for i := range many {
		many[i] = tasks.BulkItem{TaskID: fmt.Sprintf("t-%d", i), ExpectedRevision: 1}
	}
	for _, c := range []struct {
		name, field string
		edit        func(in *tasks.BulkInput)
	}{
		{"NoItems", "items", func(in *tasks.BulkInput) { in.Items = nil }},
		{"TooManyItems", "items", func(in *tasks.BulkInput) { in.Items = many }},
		{"DuplicateTask", "items[1].taskId", func(in *tasks.BulkInput) { in.Items = append(bulkItems(task), bulkItems(task)...) }},
		{"MissingTaskID", "items[0].taskId", func(in *tasks.BulkInput) { in.Items = []tasks.BulkItem{{ExpectedRevision: 1}} }},
		{"ZeroRevision", "items[0].expectedRevision", func(in *tasks.BulkInput) { in.Items = []tasks.BulkItem{{TaskID: task.ID}} }},
		{"NoOperationID", "operationId", func(in *tasks.BulkInput) { in.OperationID = " " }},
		{"LongOperationID", "operationId", func(in *tasks.BulkInput) { in.OperationID = strings.Repeat("x", tasks.MaxBulkOperationIDLength+1) }},
		{"ControlInOperationID", "operationId", func(in *tasks.BulkInput) { in.OperationID = "a\x00b" }},
		{"UnknownAction", "action", func(in *tasks.BulkInput) { in.Action = "delete" }},
		{"CancelWithoutReason", "reason", func(in *tasks.BulkInput) { in.Reason = "" }},
		{"LongReason", "reason", func(in *tasks.BulkInput) { in.Reason = strings.Repeat("r", models.MaxReasonLength+1) }},
		{"CancelWithPriority", "priority", func(in *tasks.BulkInput) { in.Priority = ptr(5) }},
		{"AssignWithoutAssignee", "assignee", func(in *tasks.BulkInput) { in.Action = tasks.BulkAssign }},
		{"AssigneeWithoutID", "assignee.id", func(in *tasks.BulkInput) {
			in.Action, in.Assignee = tasks.BulkAssign, &models.ParticipantRef{ID: " "}
		}},
		{"AssigneeControlCharacter", "assignee.id", func(in *tasks.BulkInput) {
			in.Action, in.Assignee = tasks.BulkAssign, &models.ParticipantRef{ID: "ann\x1b[31m"}
		}},
		{"AssigneeGroup", "assignee.type", func(in *tasks.BulkInput) {
			in.Action, in.Assignee = tasks.BulkAssign, &models.ParticipantRef{Type: models.GroupParticipant, ID: "finance"}
		}},
		{"ScheduleWithoutFields", "priority", func(in *tasks.BulkInput) { in.Action, in.Reason = tasks.BulkSchedule, "" }},
		{"RetryWithReason", "reason", func(in *tasks.BulkInput) { in.Action = tasks.BulkRetryResolution }},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := ok
			c.edit(&in)
			_, err := f.svc.Bulk(ctx, boss(), in)
			var ve *models.ValidationError
			if !errors.As(err, &ve) || ve.Code != models.CodeValidationFailed || ve.Fields[0].Field != c.field {
				t.Fatalf("got %v, want validation-failed on %s", err, c.field)
			}
		})
	}
	t.Run("PriorityOutOfRange", func(t *testing.T) {
		in := tasks.BulkInput{Action: tasks.BulkSchedule, OperationID: "p", Items: bulkItems(task), Priority: ptr(101)}
		_, err := f.svc.Bulk(ctx, boss(), in)
		wantCode(t, err, models.CodeInvalidPriority)
	})
	d, _ := f.svc.Detail(ctx, boss(), task.ID)
	if d.Task.Revision != task.Revision {
		t.Fatalf("a refused request changed the task: revision %d, want %d", d.Task.Revision, task.Revision)
	}
}

func ptr[T any](v T) *T { return &v }

// TestBulkOnEveryDialect: the outcomes, the replay and a cross-tenant id are the same on every
// database that can run here.
func TestBulkOnEveryDialect(t *testing.T) {
	testfactory.EachStore(t, nil, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		svc := tasks.New(s, tasks.Options{})
		open := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Title: "Open", Candidates: []string{"ann"}})
		stale := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Title: "Stale", Candidates: []string{"ann"}})
		foreign := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Tenant: "t2", Title: "Foreign", Candidates: []string{"ann"}})
		items := bulkItems(open, stale, foreign)
		items[1].ExpectedRevision = 7
		in := tasks.BulkInput{Action: tasks.BulkSchedule, OperationID: "dialects", Priority: ptr(5), Items: append(items,
			tasks.BulkItem{TaskID: "x\x00y", ExpectedRevision: 1}, tasks.BulkItem{TaskID: strings.Repeat("é", 300), ExpectedRevision: 1})}
		want := []wantItem{{tasks.BulkDone, "", "Open"}, {tasks.BulkConflict, models.CodeRevisionConflict, "Stale"},
			{tasks.BulkRefused, models.CodeNotFound, ""}, {tasks.BulkRefused, models.CodeNotFound, ""}, {tasks.BulkRefused, models.CodeNotFound, ""}}
		for range 2 { // the second time replays
			got, err := svc.Bulk(ctx, boss(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkBulk(t, got, in, want...)
		}
	})
}
