package handlerstest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
)

// TaskOpts describes a task to project; zero values take sensible defaults. Participants are
// user or group ids of the task's tenant and the default provider.
type TaskOpts struct {
	Tenant                 string // default "acme"
	Title                  string // default "Task N"
	Summary                string
	Reference              string
	TaskType               string
	Tags                   []string
	Priority               *int
	DueAt                  *time.Time
	Assignee               string
	Candidates             []string
	Groups                 []string
	Excluded               []string
	AllowExclusionOverride bool
	Instructions           string
	Data                   string          // a JSON object
	Form                   json.RawMessage // an inline form schema
	Actions                []models.Action
	CancellationEnabled    bool
	Health                 models.Health
}

var taskSeq atomic.Int64

// Task projects a task the way the runtime protocol does (models.Project + store.Create) and
// returns it as stored.
func (e *Env) Task(t testing.TB, o TaskOpts) models.Task {
	t.Helper()
	n := taskSeq.Add(1)
	if o.Tenant == "" {
		o.Tenant = "acme"
	}
	if o.Title == "" {
		o.Title = fmt.Sprintf("Task %d", n)
	}
	user := func(id string) models.ParticipantRef {
		return models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id}
	}
	p := models.Projection{
		Tenant: o.Tenant,
		Workflow: models.WorkflowLink{
			DefinitionID: "approval", DefinitionName: "Approval", InstanceID: fmt.Sprintf("wf-%d-%s", n, models.NewID()[:8]),
			ActivityInstanceID: "review", BookmarkID: "bm-" + models.NewID(),
		},
		Title: o.Title, Summary: o.Summary, Reference: o.Reference, TaskType: o.TaskType, Tags: o.Tags,
		Priority: o.Priority, DueAt: o.DueAt,
		AllowExclusionOverride: o.AllowExclusionOverride,
		Instructions:           o.Instructions, Actions: o.Actions,
		CancellationEnabled: o.CancellationEnabled, Health: o.Health,
	}
	version := 3
	p.Workflow.DefinitionVersion = &version
	if o.Assignee != "" {
		a := user(o.Assignee)
		p.Assignee = &a
	}
	for _, id := range o.Candidates {
		p.CandidateUsers = append(p.CandidateUsers, user(id))
	}
	for _, id := range o.Groups {
		p.CandidateGroups = append(p.CandidateGroups, models.ParticipantRef{Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: id})
	}
	for _, id := range o.Excluded {
		p.ExcludedUsers = append(p.ExcludedUsers, user(id))
	}
	if o.Data != "" {
		p.Data = json.RawMessage(o.Data)
	}
	if o.Form != nil {
		p.Form = &models.PinnedForm{Schema: o.Form}
	}
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	task, created, err := e.Store.Create(context.Background(), p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if err != nil {
		t.Fatalf("project task: %v", err)
	}
	if !created {
		t.Fatalf("task %s already existed", key)
	}
	return task
}

// Finalize closes a task as the runtime's bookmark removal does (models.Finalize).
func (e *Env) Finalize(t testing.TB, task models.Task) models.Task {
	t.Helper()
	ch, err := e.Store.Mutate(context.Background(), task.Tenant, task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return models.Finalize(cur, now)
	})
	if err != nil {
		t.Fatalf("finalize: %v", err)
	}
	return ch.Task
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
