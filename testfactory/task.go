package testfactory

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
)

// TaskOpts describe a task to project; zero values take defaults. Participants are user or group
// ids of the task's tenant and the default provider.
type TaskOpts struct {
	Tenant                 string // default "t1"
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
	TimeoutEnabled         bool
	Health                 models.Health
	// Projection, when set, adjusts the projection last, for what the fields above do not say.
	Projection func(p *models.Projection)
}

var taskSeq atomic.Int64

// TaskCreator is the store method Task calls, so a test seeds any provider the same way.
type TaskCreator interface {
	Create(ctx context.Context, tenant, materializationKey, bookmarkID string, build models.BuildFunc) (models.Task, bool, error)
}

// TaskMutator is the store method Finalize calls, on either provider.
type TaskMutator interface {
	Mutate(ctx context.Context, tenant, taskID, operationID string, decide models.MutateFunc) (models.Change, error)
}

// Task projects a task the way the runtime protocol does (models.Project + store.Create) and
// returns it as stored.
func Task(ctx context.Context, t testing.TB, s TaskCreator, o *TaskOpts) models.Task {
	t.Helper()
	p := Projection(o)
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	task, created, err := s.Create(ctx, p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if err != nil {
		t.Fatalf("testfactory: project task: %v", err)
	}
	if !created {
		t.Fatalf("testfactory: task %s already existed", key)
	}
	return task
}

// Projection is the runtime's projection request Task stores, with fresh workflow ids.
func Projection(o *TaskOpts) models.Projection {
	if o == nil {
		o = &TaskOpts{}
	}
	n := taskSeq.Add(1)
	tenant, title := o.Tenant, o.Title
	if tenant == "" {
		tenant = "t1"
	}
	if title == "" {
		title = fmt.Sprintf("Task %d", n)
	}
	user := func(id string) models.ParticipantRef {
		return models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id}
	}
	version := 3
	p := models.Projection{
		Tenant: tenant,
		Workflow: models.WorkflowLink{
			DefinitionID: "approval", DefinitionName: "Approval", DefinitionVersion: &version,
			InstanceID: fmt.Sprintf("wf-%d-%s", n, models.NewID()[:8]), ActivityInstanceID: "review", BookmarkID: "bm-" + models.NewID(),
		},
		Title: title, Summary: o.Summary, Reference: o.Reference, TaskType: o.TaskType, Tags: o.Tags,
		Priority: o.Priority, DueAt: o.DueAt,
		AllowExclusionOverride: o.AllowExclusionOverride,
		Instructions:           o.Instructions, Actions: o.Actions,
		CancellationEnabled: o.CancellationEnabled, TimeoutEnabled: o.TimeoutEnabled, Health: o.Health,
	}
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
	if o.Projection != nil {
		o.Projection(&p)
	}
	return p
}

// Finalize closes a task as the runtime's bookmark removal does (models.Finalize).
func Finalize(ctx context.Context, t testing.TB, s TaskMutator, task models.Task) models.Task {
	t.Helper()
	ch, err := s.Mutate(ctx, task.Tenant, task.ID, "", func(now time.Time, cur models.Task, _ *models.Operation) (models.Change, error) {
		return models.Finalize(cur, now)
	})
	if err != nil {
		t.Fatalf("testfactory: finalize: %v", err)
	}
	return ch.Task
}

// TaskLister is the store method CountTasks calls, on any provider.
type TaskLister interface {
	Query(ctx context.Context, f models.TaskFilter) (models.TaskPage, error)
}

// CountTasks counts every task of tenant, whatever its status or health.
func CountTasks(ctx context.Context, t testing.TB, s TaskLister, tenant string) int {
	t.Helper()
	page, err := s.Query(ctx, models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
		Actor: models.Actor{Tenant: tenant, Manager: true}, IncludeTotal: true, Limit: 1})
	if err != nil {
		t.Fatalf("testfactory: count tasks of %s: %v", tenant, err)
	}
	return *page.Total
}
