package storetest

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// User is a user reference of the default provider.
func User(tenant, id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id, DisplayName: "User " + id}
}

// Group is a group reference of the default provider.
func Group(tenant, id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: id}
}

// TaskOpts describes a fixture task; zero values take sensible defaults.
type TaskOpts struct {
	ID              string // default a new id
	Tenant          string // default "t1"
	Title           string
	Summary         string
	Reference       string
	TaskType        string
	Tags            []string
	Status          models.Status // default from the assignment, as a projection would
	Assignee        *models.ParticipantRef
	CandidateUsers  []string
	CandidateGroups []string
	// SnapshotMembers maps a group id to its expanded user ids (snapshot mode).
	SnapshotMembers map[string][]string
	Excluded        []string
	Mode            models.MembershipMode
	Priority        *int
	DueAt           *time.Time
	IsOverdue       bool
	Health          models.Health
	CompletedBy     *models.ParticipantRef
	TransitionedAt  *time.Time
	WorkflowDef     string
	WorkflowName    string
	WorkflowInst    string
	BookmarkID      string
	ActivityID      string
	Instructions    string
	Data            string
	Timeout         bool
	Cancellation    bool
	Form            string // a JSON schema pinned as the task's form
}

var fixtureSeq atomic.Int64

// NewTask builds the creation change of a fixture task at now.
func NewTask(o TaskOpts, now time.Time) models.Change {
	n := fixtureSeq.Add(1)
	if o.Tenant == "" {
		o.Tenant = "t1"
	}
	if o.Title == "" {
		o.Title = fmt.Sprintf("Task %d", n)
	}
	if o.WorkflowDef == "" {
		o.WorkflowDef = "approval"
	}
	if o.WorkflowInst == "" {
		o.WorkflowInst = fmt.Sprintf("wf-%d", n)
	}
	if o.ActivityID == "" {
		o.ActivityID = "review"
	}
	if o.BookmarkID == "" {
		o.BookmarkID = fmt.Sprintf("bm-%s", models.NewID())
	}
	if o.Mode == "" {
		o.Mode = models.MembershipLive
	}
	prio := models.DefaultPriority
	if o.Priority != nil {
		prio = *o.Priority
	}
	if o.ID == "" {
		o.ID = models.NewID()
	}
	t := models.Task{
		ID: o.ID, Tenant: o.Tenant,
		Workflow: models.WorkflowLink{DefinitionID: o.WorkflowDef, DefinitionName: o.WorkflowName, InstanceID: o.WorkflowInst, ActivityInstanceID: o.ActivityID, BookmarkID: o.BookmarkID},
		Title:    o.Title, Summary: o.Summary, Reference: o.Reference, TaskType: o.TaskType, Tags: o.Tags,
		Priority: prio, DueAt: o.DueAt, IsOverdue: o.IsOverdue,
		CreatedAt: now, UpdatedAt: now, Assignee: o.Assignee, Health: o.Health,
		Assignment: models.Assignment{Mode: o.Mode}, Actions: models.DefaultActions(),
		TimeoutEnabled: o.Timeout, CancellationEnabled: o.Cancellation,
		Protected: models.Protected{Instructions: o.Instructions}, TransitionedAt: o.TransitionedAt,
		Revision: 1, LastEventSeq: 1,
	}
	t.MaterializationKey = models.MaterializationKey(t.Tenant, t.Workflow.InstanceID, t.Workflow.ActivityInstanceID)
	if o.Data != "" {
		t.Protected.Data = json.RawMessage(o.Data)
	}
	if o.Form != "" {
		t.Protected.Form = &models.PinnedForm{Key: "approval", Version: "1", Schema: json.RawMessage(o.Form)}
	}
	for _, id := range o.CandidateUsers {
		t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: User(o.Tenant, id), Source: models.SourceDirectUser})
	}
	for _, id := range o.CandidateGroups {
		t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: Group(o.Tenant, id), Source: models.SourceDirectGroup})
	}
	for g, members := range o.SnapshotMembers {
		group := Group(o.Tenant, g)
		for _, id := range members {
			t.Assignment.Candidates = append(t.Assignment.Candidates, models.Candidate{Participant: User(o.Tenant, id), Source: models.SourceSnapshotMember, SourceGroup: &group})
		}
	}
	for _, id := range o.Excluded {
		t.Assignment.Exclusions = append(t.Assignment.Exclusions, User(o.Tenant, id))
	}
	t.CandidateSummary = t.Assignment.Summarize()
	switch {
	case o.Status != "":
		t.Status = o.Status
	case o.Assignee != nil:
		t.Status = models.StatusAssigned
	case len(t.Assignment.Candidates) > 0:
		t.Status = models.StatusAvailable
	default:
		t.Status = models.StatusUnassigned
	}
	if t.Assignee != nil {
		t.AssignedAt = &now
	}
	if t.Status.IsTerminal() {
		t.CompletedAt = &now
		t.Outcome = models.Outcome{ActionKey: models.ActionComplete, CompletedBy: o.CompletedBy}
	}
	ev := models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: 1, Revision: 1, Type: models.EventCreated, OccurredAt: now}
	return models.Change{Task: t, Event: &ev, AssignmentChanged: true}
}

// CreateTask stores a fixture task and returns it as stored.
func CreateTask(t *testing.T, s store.Store, o TaskOpts) models.Task {
	t.Helper()
	var key, bookmark string
	change := NewTask(o, time.Time{})
	key, bookmark = change.Task.MaterializationKey, change.Task.Workflow.BookmarkID
	task, created, err := s.Create(ctx(t), change.Task.Tenant, key, bookmark, func(now time.Time) (models.Change, error) {
		c := change
		c.Task.CreatedAt, c.Task.UpdatedAt, c.Event.OccurredAt = now, now, now
		if c.Task.AssignedAt != nil {
			c.Task.AssignedAt = &now
		}
		if c.Task.CompletedAt != nil {
			c.Task.CompletedAt = &now
		}
		return c, nil
	})
	if err != nil {
		t.Fatalf("create fixture task: %v", err)
	}
	if !created {
		t.Fatalf("fixture task %s already existed", key)
	}
	return task
}

// Bump is a generic state change for store cases: priority +1 (mod 101), revision +1, one
// event, and an operation record when opID is set.
func Bump(opID, hash string) models.MutateFunc {
	return func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		if prior != nil {
			if prior.RequestHash != hash {
				return models.Change{}, models.Conflict(models.CodeIdempotencyConflict)
			}
			return models.Change{Replay: prior}, nil
		}
		expected := t.Revision
		t.Priority = (t.Priority + 1) % 101
		t.Revision++
		t.LastEventSeq++
		t.UpdatedAt = now
		ev := models.Event{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, Seq: t.LastEventSeq, Revision: t.Revision,
			Type: models.EventScheduleUpdated, OccurredAt: now, OperationID: opID}
		c := models.Change{Task: t, ExpectedRevision: expected, Event: &ev}
		if opID != "" {
			c.Operation = &models.Operation{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, OperationID: opID,
				Kind: models.OpScheduleUpdate, ExpectedRevision: expected, RequestHash: hash, State: models.OperationCompleted,
				Attempts: 1, CreatedAt: now, UpdatedAt: now,
				Result: json.RawMessage(fmt.Sprintf(`{"revision":%d}`, t.Revision))}
		}
		return c, nil
	}
}
