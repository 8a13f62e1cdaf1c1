package models

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Fixtures shared by the transition tests.

const testTenant = "acme"

// secretMarker appears in every protected payload of the fixtures; it must never reach an event
// or an operation result.
const secretMarker = "SECRET"

var (
	now     = time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)
	created = now.Add(-24 * time.Hour)
)

func userRef(id string) ParticipantRef {
	return ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: UserParticipant, ID: id}
}

func groupRef(id string) ParticipantRef {
	return ParticipantRef{Tenant: testTenant, Provider: DefaultProvider, Type: GroupParticipant, ID: id}
}

// person is a signed-in user of the test tenant holding groups.
func person(id string, groups ...string) Actor {
	a := Actor{Tenant: testTenant, Subject: userRef(id), DisplayName: strings.ToUpper(id[:1]) + id[1:]}
	for _, g := range groups {
		a.Groups = append(a.Groups, groupRef(g))
	}
	return a
}

// manager is a person with the manager flag.
func manager(id string) Actor {
	a := person(id)
	a.Manager = true
	return a
}

// guest is the actor of a guest session for task t.
func guest(t Task, invitationID string, actions ...string) Actor {
	return Actor{
		Tenant:      testTenant,
		Subject:     GuestRef(testTenant, invitationID),
		DisplayName: "Guest",
		Guest:       &GuestGrant{TaskID: t.ID, InvitationID: invitationID, AllowedActions: actions},
	}
}

func intPtr(v int) *int                       { return &v }
func timePtr(v time.Time) *time.Time          { return &v }
func refPtr(p ParticipantRef) *ParticipantRef { return &p }

// baseProjection is a valid projection: candidate user alice, candidate group approvers,
// excluded user mallory, actions Approve/Reject, one invitation definition, no form.
func baseProjection() Projection {
	return Projection{
		Tenant: testTenant,
		Workflow: WorkflowLink{
			DefinitionID: "wf-approval", DefinitionName: "Approval", InstanceID: "wi-1",
			ActivityInstanceID: "ai-1", BookmarkID: "bm-1",
		},
		Title:               "Approve invoice 42",
		Summary:             "Invoice from Contoso",
		CandidateUsers:      []ParticipantRef{{ID: "alice"}},
		CandidateGroups:     []ParticipantRef{{ID: "approvers"}},
		ExcludedUsers:       []ParticipantRef{{ID: "mallory"}},
		Instructions:        secretMarker + " instructions",
		Data:                json.RawMessage(`{"amount":"` + secretMarker + `-1200"}`),
		Actions:             []Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}},
		Invitations:         []InvitationDefinition{{VerifierName: "code", AllowedActions: []string{"Approve"}}},
		CancellationEnabled: true,
	}
}

// resolvedForm is a pinned form whose schema carries the secret marker.
func resolvedForm() *PinnedForm {
	return &PinnedForm{Provider: "files", Key: "invoice", Version: "3", Schema: json.RawMessage(
		`{"type":"object","properties":{"comment":{"type":"string","x-ui":{"label":"` + secretMarker + `"}}}}`)}
}

// taskOpts shape a fixture task; the zero value is an Available task at revision 4.
type taskOpts struct {
	projection func(*Projection) // adjusts baseProjection
	status     Status            // the lifecycle state to put the task in
	assignee   *ParticipantRef   // for Assigned and the states after it; alice when nil
}

// newTask projects baseProjection (adjusted) and moves the result into opts.status with the
// fields that status implies, at revision 4 and event sequence 6.
func newTask(t *testing.T, opts *taskOpts) Task {
	t.Helper()
	if opts == nil {
		opts = &taskOpts{}
	}
	p := baseProjection()
	if opts.projection != nil {
		opts.projection(&p)
	}
	ch, err := Project(p, created)
	if err != nil {
		t.Fatalf("fixture projection: %v", err)
	}
	task := ch.Task
	task.Revision, task.LastEventSeq = 4, 6

	who := userRef("alice")
	if opts.assignee != nil {
		who = *opts.assignee
	}
	assign := func() {
		task.Assignee = refPtr(who)
		task.AssignedAt = timePtr(created)
	}
	transitioned := timePtr(now.Add(-time.Minute))
	boss := userRef("boss")
	switch opts.status {
	case "":
	case StatusUnassigned, StatusAvailable:
		task.Status, task.Assignee, task.AssignedAt = opts.status, nil, nil
	case StatusAssigned:
		assign()
		task.Status = StatusAssigned
	case StatusCompleting, StatusCompleted:
		assign()
		task.Status, task.TransitionedAt = opts.status, transitioned
		task.Outcome = Outcome{ActionKey: "Approve", CompletedBy: refPtr(who)}
	case StatusTimingOut, StatusTimedOut:
		task.Status, task.TransitionedAt = opts.status, transitioned
		task.Outcome = Outcome{ActionKey: ActionTimeout}
	case StatusCancelling, StatusCancelled:
		task.Status, task.TransitionedAt = opts.status, transitioned
		task.Outcome = Outcome{ActionKey: ActionCancelled, CompletedBy: &boss}
	default:
		t.Fatalf("fixture: unknown status %q", opts.status)
	}
	if task.Status.IsTerminal() {
		task.CompletedAt = timePtr(now.Add(-time.Second))
	}
	if task.Status != StatusUnassigned && task.Health.Code == HealthNoParticipants {
		task.Health = Health{}
	}
	return task
}

// cmdOf is a command of actor a against the task's current revision.
func cmdOf(a Actor, task Task) Command {
	return Command{OperationID: "op-1", ExpectedRevision: task.Revision, Actor: a}
}

// wantChange describes a committed change.
type wantChange struct {
	status      Status
	event       EventType
	kind        OperationKind
	state       OperationState // completed or accepted
	actor       *ParticipantRef
	operationID string // "" → a minted id
}

// mustCommit runs fn on task, requires success and checks the shared shape of the change
// (SPEC 3.4, 3.5): revision and sequence, event, operation record, resumption row, result, no
// protected data in the event or result, no mutation of or aliasing with the input.
func mustCommit(t *testing.T, task Task, w wantChange, fn func(Task) (Change, error)) Change {
	t.Helper()
	snapshot := cloneTask(task)
	ch, err := fn(task)
	if err != nil {
		t.Fatalf("got error %v (code %q), want a committed change", err, ErrorCode(err))
	}
	if !reflect.DeepEqual(task, snapshot) {
		t.Fatalf("the transition mutated its input task")
	}
	checkChange(t, task, ch, w)
	keep := cloneTask(ch.Task)
	scribble(&ch.Task)
	if !reflect.DeepEqual(task, snapshot) {
		t.Fatalf("the change shares memory with the input task")
	}
	ch.Task = keep
	return ch
}

func checkChange(t *testing.T, before Task, ch Change, w wantChange) {
	t.Helper()
	got := ch.Task
	if ch.Replay != nil {
		t.Fatalf("got a replay, want a committed change")
	}
	if got.Status != w.status {
		t.Errorf("status: got %s, want %s", got.Status, w.status)
	}
	if got.Revision != before.Revision+1 || ch.ExpectedRevision != before.Revision {
		t.Errorf("revision: got %d guarded by %d, want %d guarded by %d", got.Revision, ch.ExpectedRevision, before.Revision+1, before.Revision)
	}
	if got.LastEventSeq != before.LastEventSeq+1 {
		t.Errorf("last event seq: got %d, want %d", got.LastEventSeq, before.LastEventSeq+1)
	}
	if !got.UpdatedAt.Equal(now) {
		t.Errorf("updatedAt: got %v, want %v", got.UpdatedAt, now)
	}
	if got.ID != before.ID && before.ID != "" {
		t.Errorf("task id changed: got %s, want %s", got.ID, before.ID)
	}

	ev := ch.Event
	if ev == nil {
		t.Fatalf("event: got nil")
	}
	op := ch.Operation
	if op == nil {
		t.Fatalf("operation: got nil")
	}
	if ev.ID == "" || ev.Tenant != got.Tenant || ev.TaskID != got.ID || ev.Seq != got.LastEventSeq ||
		ev.Revision != got.Revision || ev.Type != w.event || !ev.OccurredAt.Equal(now) {
		t.Errorf("event: got %+v, want type %s seq %d revision %d", *ev, w.event, got.LastEventSeq, got.Revision)
	}
	if ev.OperationID != op.OperationID {
		t.Errorf("event operation id: got %q, want %q", ev.OperationID, op.OperationID)
	}
	if !sameRef(ev.Actor, w.actor) || !sameRef(op.Actor, w.actor) {
		t.Errorf("actor: got event %v operation %v, want %v", ev.Actor, op.Actor, w.actor)
	}
	if w.operationID != "" && op.OperationID != w.operationID {
		t.Errorf("operation id: got %q, want %q", op.OperationID, w.operationID)
	}
	if op.OperationID == "" || op.ID == "" {
		t.Errorf("operation ids: got row %q operation %q, want both set", op.ID, op.OperationID)
	}
	if op.Tenant != got.Tenant || op.TaskID != got.ID || op.Kind != w.kind || op.State != w.state ||
		op.ExpectedRevision != before.Revision || op.Attempts != 1 || op.RequestHash == "" ||
		!op.CreatedAt.Equal(now) || !op.UpdatedAt.Equal(now) {
		t.Errorf("operation: got %+v, want kind %s state %s expected revision %d", *op, w.kind, w.state, before.Revision)
	}
	if (op.CompletedAt != nil) != (w.state == OperationCompleted) {
		t.Errorf("operation completedAt: got %v for state %s", op.CompletedAt, w.state)
	}
	var result operationResult
	if err := json.Unmarshal(op.Result, &result); err != nil {
		t.Fatalf("operation result %s: %v", op.Result, err)
	}
	if want := (operationResult{Status: w.state, Revision: got.Revision, TaskStatus: got.Status}); result != want {
		t.Errorf("operation result: got %+v, want %+v", result, want)
	}

	switch w.state {
	case OperationAccepted:
		r := ch.Resumption
		if r == nil {
			t.Fatalf("resumption: got nil, want a pending row")
		}
		if r.ID == "" || r.Tenant != got.Tenant || r.TaskID != got.ID || r.OperationID != op.OperationID ||
			r.Kind != w.kind || r.State != DeliveryPending || !r.AvailableAt.Equal(now) {
			t.Errorf("resumption: got %+v", *r)
		}
		if got.TransitionedAt == nil || !got.TransitionedAt.Equal(now) {
			t.Errorf("transitionedAt: got %v, want %v", got.TransitionedAt, now)
		}
	default:
		if ch.Resumption != nil {
			t.Errorf("resumption: got %+v, want none", *ch.Resumption)
		}
	}

	evJSON, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string]string{"event": string(evJSON), "result": string(op.Result)} {
		if strings.Contains(raw, secretMarker) {
			t.Errorf("%s leaks protected data: %s", name, raw)
		}
	}
	if len(ev.Metadata) > MaxEventMetadataBytes {
		t.Errorf("event metadata: got %d bytes, want at most %d", len(ev.Metadata), MaxEventMetadataBytes)
	}
}

// scribble overwrites every shared-memory part of a task, to prove a change does not alias its input.
func scribble(t *Task) {
	for i := range t.Tags {
		t.Tags[i] = "scribbled"
	}
	for i := range t.Assignment.Candidates {
		t.Assignment.Candidates[i].Participant.ID = "scribbled"
		if g := t.Assignment.Candidates[i].SourceGroup; g != nil {
			g.ID = "scribbled"
		}
	}
	for i := range t.Assignment.Exclusions {
		t.Assignment.Exclusions[i].ID = "scribbled"
	}
	for i := range t.Actions {
		t.Actions[i].Key = "scribbled"
	}
	for _, p := range []*ParticipantRef{t.Assignee, t.Requester, t.Outcome.CompletedBy} {
		if p != nil {
			p.ID = "scribbled"
		}
	}
	for _, p := range []*time.Time{t.DueAt, t.AssignedAt, t.CompletedAt, t.TransitionedAt} {
		if p != nil {
			*p = time.Time{}
		}
	}
	for _, raw := range [][]byte{t.Protected.Data, t.Protected.CompletionData} {
		for i := range raw {
			raw[i] = 'x'
		}
	}
	if f := t.Protected.Form; f != nil {
		for i := range f.Schema {
			f.Schema[i] = 'x'
		}
		f.Key = "scribbled"
	}
	for _, d := range t.Protected.InvitationDefinitions {
		for i := range d.AllowedActions {
			d.AllowedActions[i] = "scribbled"
		}
	}
}

func sameRef(a, b *ParticipantRef) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Same(*b)
}

// wantCode requires err to carry code; for not-found it also requires errors.Is(err, ErrNotFound).
func wantCode(t *testing.T, err error, code Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := ErrorCode(err); got != code {
		t.Fatalf("got error %v (code %q), want code %q", err, got, code)
	}
	if code == CodeNotFound && !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v, want it to wrap ErrNotFound", err)
	}
}

// wantField requires a validation error naming field.
func wantField(t *testing.T, err error, field string) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v, want a *ValidationError", err)
	}
	for _, f := range ve.Fields {
		if f.Field == field {
			return
		}
	}
	t.Fatalf("got fields %+v, want one named %q", ve.Fields, field)
}

// refusal is one row of a refusal table.
type refusal struct {
	name string
	task Task
	fn   func(Task) (Change, error)
	want Code
}

func runRefusals(t *testing.T, rows []refusal) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			snapshot := cloneTask(r.task)
			ch, err := r.fn(r.task)
			wantCode(t, err, r.want)
			if !reflect.DeepEqual(ch, Change{}) {
				t.Errorf("got change %+v with the refusal, want the zero Change", ch)
			}
			if !reflect.DeepEqual(r.task, snapshot) {
				t.Errorf("a refused transition mutated its input")
			}
		})
	}
}
