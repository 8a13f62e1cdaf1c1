package storekit

import (
	"errors"
	"testing"
	"time"

	"usertasks/models"
)

func TestNextPolicyRevision(t *testing.T) {
	live, deleted := "[]", (*string)(nil)
	row := func(rev int, json *string) *DeadlinePolicyRow {
		return &DeadlinePolicyRow{Revision: rev, DeadlinesJSON: json}
	}
	for _, tt := range []struct {
		name     string
		cur      *DeadlinePolicyRow
		expected int
		action   models.DeadlinePolicyAction
		want     int
		err      error
	}{
		{"PutFirst", nil, 0, models.DeadlinePolicyPut, 1, nil},
		{"PutFirstExpectingOne", nil, 1, models.DeadlinePolicyPut, 0, models.ErrConflict},
		{"PutUpdate", row(2, &live), 2, models.DeadlinePolicyPut, 3, nil},
		{"PutStale", row(2, &live), 1, models.DeadlinePolicyPut, 0, models.ErrConflict},
		{"PutCreateOverLive", row(2, &live), 0, models.DeadlinePolicyPut, 0, models.ErrConflict},
		{"PutAfterDelete", row(4, deleted), 0, models.DeadlinePolicyPut, 5, nil},
		{"PutExpectingTheDeletedRevision", row(4, deleted), 4, models.DeadlinePolicyPut, 0, models.ErrConflict},
		{"DeleteAny", row(2, &live), 0, models.DeadlinePolicyDelete, 3, nil},
		{"DeleteExpected", row(2, &live), 2, models.DeadlinePolicyDelete, 3, nil},
		{"DeleteStale", row(2, &live), 1, models.DeadlinePolicyDelete, 0, models.ErrConflict},
		{"DeleteNone", nil, 0, models.DeadlinePolicyDelete, 0, models.ErrNotFound},
		{"DeleteDeleted", row(4, deleted), 4, models.DeadlinePolicyDelete, 0, models.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NextPolicyRevision(tt.cur, tt.expected, tt.action)
			if got != tt.want || (tt.err == nil) != (err == nil) || (tt.err != nil && !errors.Is(err, tt.err)) {
				t.Fatalf("got %d, %v; want %d, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestApplyDeadlinePolicy(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	p := models.DeadlinePolicy{Tenant: "t1", DefinitionID: "d", Revision: 1, Deadlines: []models.DeadlineDefinition{
		{Kind: models.DeadlineStart, After: "PT1H", Actions: []models.DeadlineAction{{Type: models.DeadlineFlag}}}}}
	reads := 0
	lookup := func(tenant, def string) (*models.DeadlinePolicy, error) {
		reads++
		if tenant != "t1" || def != "d" {
			return nil, nil
		}
		return &p, nil
	}
	change := func(defaults bool, own ...models.Deadline) *models.Change {
		return &models.Change{Task: models.Task{ID: "task", Tenant: "t1", CreatedAt: now, Workflow: models.WorkflowLink{DefinitionID: "d"}},
			Deadlines: own, DefaultDeadlines: defaults}
	}

	c := change(true)
	if err := ApplyDeadlinePolicy(c, lookup); err != nil || len(c.Deadlines) != 1 || !c.Deadlines[0].DueAt.Equal(now.Add(time.Hour)) || c.Deadlines[0].TaskID != "task" {
		t.Fatalf("applied %+v, %v", c.Deadlines, err)
	}
	own := models.Deadline{Kind: models.DeadlineCompletion}
	for _, c := range []*models.Change{change(false), change(true, own), change(false, own)} {
		before := reads
		want := len(c.Deadlines)
		if err := ApplyDeadlinePolicy(c, lookup); err != nil || len(c.Deadlines) != want || reads != before {
			t.Fatalf("a projection with its own choice: %+v, %v, %d reads", c.Deadlines, err, reads-before)
		}
	}
	failing := func(string, string) (*models.DeadlinePolicy, error) { return nil, models.ErrBusy }
	if err := ApplyDeadlinePolicy(change(true), failing); !errors.Is(err, models.ErrBusy) {
		t.Fatalf("a failed read: %v", err)
	}
}
