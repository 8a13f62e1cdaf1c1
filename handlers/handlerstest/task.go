package handlerstest

import (
	"context"
	"testing"

	"usertasks/models"
	"usertasks/testfactory"
)

// TaskOpts describe a task to project (testfactory.TaskOpts), in tenant "acme" by default.
type TaskOpts = testfactory.TaskOpts

// Task projects a task the way the runtime protocol does and returns it as stored.
func (e *Env) Task(t testing.TB, o TaskOpts) models.Task {
	t.Helper()
	if o.Tenant == "" {
		o.Tenant = "acme"
	}
	return testfactory.Task(context.Background(), t, e.Store, &o)
}

// Finalize closes a task as the runtime's bookmark removal does (models.Finalize).
func (e *Env) Finalize(t testing.TB, task models.Task) models.Task {
	t.Helper()
	return testfactory.Finalize(context.Background(), t, e.Store, task)
}

// Get loads a task from the store.
func (e *Env) Get(t testing.TB, task models.Task) models.Task {
	t.Helper()
	got, err := e.Store.Get(context.Background(), task.Tenant, task.ID)
	if err != nil {
		t.Fatalf("get task: %v", err)
	}
	return got
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }
