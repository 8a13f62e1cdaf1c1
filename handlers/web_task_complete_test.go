package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"usertasks/handlers"
	"usertasks/models"
	"usertasks/tasks"
)

// countingTasks counts the task page's reads and completions.
type countingTasks struct {
	handlers.TaskService
	details, completions *atomic.Int32
}

func (s countingTasks) Detail(ctx context.Context, a models.Actor, id string) (tasks.Detail, error) {
	s.details.Add(1)
	return s.TaskService.Detail(ctx, a, id)
}

func (s countingTasks) CompleteForm(ctx context.Context, a models.Actor, id string, in tasks.FormCompleteInput) (tasks.FormCompletion, error) {
	s.completions.Add(1)
	return s.TaskService.CompleteForm(ctx, a, id, in)
}

// TestTaskPageCompleteCallsTheServiceOnce: a completion post is one service call, whether it
// redirects or shows the form again; the service loads the task and parses its form once
// (tasks.TestCompleteFormLoadsAndParsesOnce).
func TestTaskPageCompleteCallsTheServiceOnce(t *testing.T) {
	var details, completions atomic.Int32
	f := newWebFixtureWith(t, func(s handlers.TaskService) handlers.TaskService {
		return countingTasks{TaskService: s, details: &details, completions: &completions}
	})
	b := f.signIn(t, "ann")
	for _, tc := range []struct {
		name   string
		values url.Values
		status int
	}{
		{"OK", url.Values{"decision": {"approve"}, "amount": {"12"}}, http.StatusSeeOther},
		{"ErrFormInvalid", url.Values{"decision": nil, "amount": {"abc"}}, http.StatusSeeOther},
		{"ErrRevisionConflict", url.Values{"decision": {"approve"}, "expectedRevision": {"1"}}, http.StatusSeeOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, p := claimed(t, f, b, webTaskOpts{})
			details.Store(0)
			completions.Store(0)
			b.submit(p, "task-form", tc.values, p.one("action-approve")).wantStatus(tc.status)
			if details.Load() != 0 || completions.Load() != 1 {
				t.Fatalf("%d detail reads and %d completions, want one completion only", details.Load(), completions.Load())
			}
		})
	}
}
