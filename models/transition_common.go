package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// This file holds what every lifecycle transition shares (SPEC 3.3, 3.4, 4): the order of
// checks, the stamping of a committed change, request validation and deep copies.
//
// Every command function checks, in this order:
//  1. relationship — ErrNotFound when the caller may not run the command on this task (blocking
//     health denies everyone but managers); the actor of a stored operation may always replay it;
//  2. request validation — a *ValidationError (422);
//  3. idempotency — Command.CheckReplay; a replay returns Change{Replay: prior} and nothing else;
//     only the actor that ran the operation may replay it;
//  4. revision — Conflict(CodeRevisionConflict);
//  5. state — Conflict(CodeTerminal), Conflict(CodeTransitionInProgress), then command specific.
//
// start runs check 1 (after the aggregate's own invariants), admit checks 2 to 4 and admitOpen
// 2 to 5.

// maxFieldKeyLength bounds a revealed field key so its event metadata stays small.
const maxFieldKeyLength = 256

// maxInvitationIDLength keeps GuestRef(tenant, id) within MaxParticipantIDLength.
const maxInvitationIDLength = MaxParticipantIDLength - len("invitation:")

// prepare fixes the command's kind and, when the caller left RequestHash empty, computes it
// from the command's meaningful fields so that every caller hashes a command the same way.
func prepare(cmd Command, kind OperationKind, fields any) (Command, error) {
	cmd, err := ofKind(cmd, kind)
	if err != nil {
		return cmd, err
	}
	if cmd.RequestHash == "" {
		cmd.RequestHash = RequestHash(kind, cmd.ExpectedRevision, fields)
	}
	return cmd, nil
}

// ofKind fixes the command's kind, refusing a command of another kind.
func ofKind(cmd Command, kind OperationKind) (Command, error) {
	switch cmd.Kind {
	case "":
		cmd.Kind = kind
	case kind:
	default:
		return cmd, fmt.Errorf("models: a %q command was passed to the %q transition", cmd.Kind, kind)
	}
	return cmd, nil
}

// replaysOwn reports whether the caller repeats an operation it ran itself. Such a caller may
// always get its original answer (or an idempotency conflict), even when its relationship to
// the task has since ended: the releaser is no longer the assignee, the completer's task is closed.
func replaysOwn(t Task, cmd Command) bool {
	a := cmd.Actor
	return cmd.Prior != nil && cmd.Prior.Kind == cmd.Kind && !a.System && a.Tenant == t.Tenant && cmd.Prior.RanBy(a)
}

// manages reports whether a may run manager commands on t.
func manages(t Task, a Actor) bool {
	return a.Manager && !a.System && a.Guest == nil && a.Tenant == t.Tenant
}

// hiddenFrom reports whether blocking health hides t from a (everyone but managers).
func hiddenFrom(t Task, a Actor) bool { return t.Health.Blocking() && !manages(t, a) }

// personAssignee reports whether a is a signed-in person (not a guest) assigned to t.
func personAssignee(t Task, a Actor) bool {
	return !a.System && a.Guest == nil && a.Tenant == t.Tenant && t.IsAssignee(a.Subject)
}

// guestAssignee reports whether a is the guest a verified invitation assigned t to: the grant is
// for this task, and both the grant's participant and the actor's subject are the assignee.
func guestAssignee(t Task, a Actor) bool {
	if a.System || a.Guest == nil || a.Tenant != t.Tenant || a.Guest.TaskID != t.ID || t.Assignee == nil {
		return false
	}
	return t.Assignee.Same(GuestRef(t.Tenant, a.Guest.InvitationID)) && t.Assignee.Same(a.Subject)
}

// start runs what precedes a command's own validation: the stored aggregate's invariants
// (checkStored), the command's kind and request hash (prepare), then check 1: ErrNotFound
// unless the caller replays its own operation or relates to t.
func start(t Task, cmd Command, kind OperationKind, fields any, relates func(Task, Actor) bool) (Command, error) {
	if err := checkStored(t); err != nil {
		return cmd, err
	}
	cmd, err := prepare(cmd, kind, fields)
	if err != nil {
		return cmd, err
	}
	if !replaysOwn(t, cmd) && !relates(t, cmd.Actor) {
		return cmd, ErrNotFound
	}
	return cmd, nil
}

// admitOpen runs checks 2 to 5 of a command on an open task: admit, then requireOpen. A
// non-nil replay ends the command: the caller answers with the stored result and writes
// nothing.
func admitOpen(t Task, cmd Command, pr *problems) (replay *Operation, err error) {
	if replay, err := admit(t, cmd, pr); err != nil || replay != nil {
		return replay, err
	}
	return nil, requireOpen(t)
}

// admit runs the request validation (the problems collected), idempotency and revision checks,
// in that order. A non-nil replay ends the command: the caller answers with the stored result
// and writes nothing.
func admit(t Task, cmd Command, pr *problems) (replay *Operation, err error) {
	if err := pr.err(); err != nil {
		return nil, err
	}
	prior, err := cmd.CheckReplay()
	if err != nil {
		return nil, err
	}
	if prior != nil {
		return prior, nil
	}
	if cmd.ExpectedRevision != t.Revision {
		return nil, Conflict(CodeRevisionConflict)
	}
	return nil, nil
}

// requireOpen refuses a task that left its open states: terminal first, then transitional.
func requireOpen(t Task) error {
	switch {
	case t.Status.IsTerminal():
		return Conflict(CodeTerminal)
	case t.Status.IsTransitional():
		return Conflict(CodeTransitionInProgress)
	}
	return nil
}

// checkStored refuses an aggregate that breaks an invariant the transitions rely on; it is
// reported as corrupt, never repaired.
func checkStored(t Task) error {
	switch {
	case !t.Status.Valid():
		return &CorruptError{TaskID: t.ID, Reason: fmt.Sprintf("unknown status %q", t.Status)}
	case t.Revision < 1:
		return &CorruptError{TaskID: t.ID, Reason: "revision below 1"}
	case t.Status.IsOpen() && (t.Status == StatusAssigned) != (t.Assignee != nil):
		return &CorruptError{TaskID: t.ID, Reason: "status " + string(t.Status) + " disagrees with the assignee"}
	}
	return nil
}

// settleParticipantsHealth keeps the advisory no-participants finding in step with the status:
// an Unassigned task without another finding gets it, any other status drops it.
func settleParticipantsHealth(t *Task) {
	switch {
	case t.Status == StatusUnassigned && t.Health.Severity == SeverityNone:
		t.Health = Health{Severity: SeverityAdvisory, Code: HealthNoParticipants, Message: "The task has no assignee, candidates or invitations."}
	case t.Status != StatusUnassigned && t.Health.Code == HealthNoParticipants:
		t.Health = Health{}
	}
}

// hasParticipants reports whether anyone can still pick the task up: a candidate row or a guest
// invitation definition.
func hasParticipants(t Task) bool {
	return len(t.Assignment.Candidates) > 0 || len(t.Protected.InvitationDefinitions) > 0
}

// transition describes one committed change for commit.
type transition struct {
	kind        OperationKind
	event       EventType
	state       OperationState // completed for immediate commands, accepted when entering a transitional status
	operationID string         // "" mints one
	requestHash string
	actor       *ParticipantRef
	reason      string
	actionKey   string
	payload     json.RawMessage // protected: the completion data, kept on the operation only
	metadata    any             // safe event metadata; nil for none
}

// operationResult is the safe answer stored with an operation and returned on replay.
type operationResult struct {
	Status     OperationState `json:"status"`
	Revision   int            `json:"revision"`
	TaskStatus Status         `json:"taskStatus"`
}

// commit stamps next (a deep copy of old with the command's effect applied) and builds the rows
// written with it: the event, the operation record and, when the change enters a transitional
// status, the resumption outbox row.
func commit(old, next Task, tr transition, now time.Time) (Change, error) {
	next.Revision = old.Revision + 1
	next.LastEventSeq = old.LastEventSeq + 1
	next.UpdatedAt = now

	meta, err := eventMetadata(tr.metadata)
	if err != nil {
		return Change{}, err
	}
	opID := tr.operationID
	if opID == "" {
		opID = NewID()
	}
	result, err := json.Marshal(operationResult{Status: tr.state, Revision: next.Revision, TaskStatus: next.Status})
	if err != nil {
		return Change{}, err
	}

	ev := &Event{
		ID:          NewID(),
		Tenant:      next.Tenant,
		TaskID:      next.ID,
		Seq:         next.LastEventSeq,
		Revision:    next.Revision,
		Type:        tr.event,
		OccurredAt:  now,
		OperationID: opID,
		Actor:       clonePtr(tr.actor),
		Reason:      tr.reason,
		Metadata:    meta,
	}
	op := &Operation{
		ID:               NewID(),
		Tenant:           next.Tenant,
		TaskID:           next.ID,
		OperationID:      opID,
		Kind:             tr.kind,
		ExpectedRevision: old.Revision,
		RequestHash:      tr.requestHash,
		State:            tr.state,
		Attempts:         1,
		CreatedAt:        now,
		UpdatedAt:        now,
		ActionKey:        tr.actionKey,
		Reason:           tr.reason,
		Actor:            clonePtr(tr.actor),
		Result:           result,
		Payload:          bytes.Clone(tr.payload),
	}
	ch := Change{Task: next, ExpectedRevision: old.Revision, Event: ev, Operation: op}
	switch tr.state {
	case OperationCompleted:
		op.CompletedAt = clonePtr(&now)
	case OperationAccepted:
		ch.Resumption = &Resumption{
			ID:          NewID(),
			Tenant:      next.Tenant,
			TaskID:      next.ID,
			OperationID: opID,
			Kind:        tr.kind,
			State:       DeliveryPending,
			AvailableAt: now,
			CreatedAt:   now,
			UpdatedAt:   now,
		}
	}
	return ch, nil
}

// commitCommand is commit for a command: the operation's kind, id and request hash and the
// event's actor are the command's.
func commitCommand(old, next Task, cmd Command, tr transition, now time.Time) (Change, error) {
	tr.kind, tr.operationID, tr.requestHash, tr.actor = cmd.Kind, cmd.OperationID, cmd.RequestHash, cmd.Actor.Ref()
	return commit(old, next, tr, now)
}

// assignedTo is t assigned to who at now: the effect of claim, assign, guest verification,
// delegation and return. A new assignment ends a delegation (delegate sets it again).
func assignedTo(t Task, who *ParticipantRef, now time.Time) Task {
	next := cloneTask(t)
	next.Status = StatusAssigned
	next.Assignee = who
	next.DelegatedBy = nil
	next.AssignedAt = clonePtr(&now)
	settleParticipantsHealth(&next)
	return next
}

// eventMetadata encodes safe event metadata and enforces its bound.
func eventMetadata(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("models: event metadata: %w", err)
	}
	if len(raw) > MaxEventMetadataBytes {
		return nil, fmt.Errorf("models: event metadata of %d bytes exceeds %d", len(raw), MaxEventMetadataBytes)
	}
	return raw, nil
}

// newEvent builds an audit event that records no change of state (reveal, invitation
// issue/revoke): it keeps the task's revision and takes the next sequence.
func newEvent(t Task, a Actor, typ EventType, metadata any, now time.Time) (Event, error) {
	meta, err := eventMetadata(metadata)
	if err != nil {
		return Event{}, err
	}
	return Event{
		ID:         NewID(),
		Tenant:     t.Tenant,
		TaskID:     t.ID,
		Seq:        t.LastEventSeq + 1,
		Revision:   t.Revision,
		Type:       typ,
		OccurredAt: now,
		Actor:      a.Ref(),
		Metadata:   meta,
	}, nil
}

// wireRef is a participant as events show it: never the tenant.
type wireRef struct {
	Provider    string          `json:"provider"`
	Type        ParticipantType `json:"type"`
	ID          string          `json:"id"`
	DisplayName string          `json:"displayName,omitempty"`
}

func toWire(p ParticipantRef) wireRef {
	return wireRef{Provider: p.Provider, Type: p.Type, ID: p.ID, DisplayName: p.DisplayName}
}

// hashable makes raw JSON safe to feed to RequestHash: invalid JSON is hashed as a string, so a
// malformed request still gets a stable hash and is refused by validation, not by a panic.
func hashable(raw json.RawMessage) any {
	switch {
	case len(raw) == 0:
		return nil
	case json.Valid(raw):
		return raw
	}
	return string(raw)
}

// nullJSON reports whether raw is absent or the JSON literal null.
func nullJSON(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) == 0 || string(trimmed) == "null"
}

// jsonObject reports whether raw is a well-formed JSON object.
func jsonObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)
}

// problems collects a request's validation failures so one answer lists every offending field.
// The answer's code is the first specific code recorded (reserved-action, payload-too-large, …),
// or validation-failed when every problem is a plain field problem.
type problems struct {
	code   Code
	fields []FieldError
}

func (p *problems) add(code Code, field, message string) {
	if p.code == "" || p.code == CodeValidationFailed {
		p.code = code
	}
	p.fields = append(p.fields, FieldError{Field: field, Message: message})
}

// fail records a plain validation-failed problem.
func (p *problems) fail(field, message string) { p.add(CodeValidationFailed, field, message) }

func (p *problems) err() error {
	if len(p.fields) == 0 {
		return nil
	}
	return Invalid(p.code, p.fields...)
}

// text checks a string field against its byte limit (column sizes are bytes in every dialect we
// support, Oracle's VARCHAR2 included) and against the characters its kind admits (TextProblem).
func (p *problems) text(field, value string, limit int, required bool, kind TextKind) {
	if msg := FieldProblem(value, limit, required, kind); msg != "" {
		p.fail(field, msg)
	}
}

// reason checks an optional free-text reason; it may span lines (a textarea on the pages).
func (p *problems) reason(reason string) { p.text("reason", reason, MaxReasonLength, false, Prose) }

// operationID checks the client's operation id; required for complete and cancel (SPEC 3.4).
func (p *problems) operationID(id string, required bool) {
	p.text("operationId", id, MaxOperationIDLength, required, Identifier)
}

// priority checks a priority against 0..100.
func (p *problems) priority(v *int) {
	if v != nil && (*v < MinPriority || *v > MaxPriority) {
		p.add(CodeInvalidPriority, "priority", fmt.Sprintf("must be between %d and %d", MinPriority, MaxPriority))
	}
}

// participant normalizes a wire participant into a reference of tenant: an empty provider
// becomes DefaultProvider, an empty tenant the task's, an empty type the one the field implies.
// A reference of another tenant is recorded with crossTenant.
func (p *problems) participant(field string, ref ParticipantRef, tenant string, want ParticipantType, crossTenant Code) (ParticipantRef, bool) {
	if ref.Provider == "" {
		ref.Provider = DefaultProvider
	}
	if ref.Tenant == "" {
		ref.Tenant = tenant
	}
	if ref.Type == "" {
		ref.Type = want
	}
	before := len(p.fields)
	switch {
	case ref.Tenant != tenant:
		p.add(crossTenant, field, "must belong to the task's tenant")
	case ref.Type != want:
		p.fail(field+".type", "must be "+string(want))
	case ref.Provider == GuestProvider:
		p.fail(field+".provider", "guest participants come from invitations only")
	}
	p.text(field+".id", ref.ID, MaxParticipantIDLength, true, Identifier)
	p.text(field+".provider", ref.Provider, MaxProviderLength, true, Identifier)
	p.text(field+".displayName", ref.DisplayName, MaxDisplayNameLength, false, Label)
	if len(p.fields) == before && !ref.Valid() {
		p.fail(field, "is not a valid participant")
	}
	return ref, len(p.fields) == before
}

// snapshotMembers validates expanded snapshot members and returns them as candidate rows.
func (p *problems) snapshotMembers(field string, members []Candidate, tenant string) []Candidate {
	rows := make([]Candidate, 0, len(members))
	for i, c := range members {
		f := fmt.Sprintf("%s[%d]", field, i)
		if c.Source != "" && c.Source != SourceSnapshotMember {
			p.fail(f+".source", "must be "+string(SourceSnapshotMember))
		}
		ref, ok := p.participant(f, c.Participant, tenant, UserParticipant, CodeValidationFailed)
		if c.SourceGroup == nil {
			p.fail(f+".sourceGroup", "is required")
			continue
		}
		group, gok := p.participant(f+".sourceGroup", *c.SourceGroup, tenant, GroupParticipant, CodeValidationFailed)
		if ok && gok {
			rows = append(rows, Candidate{Participant: ref, Source: SourceSnapshotMember, SourceGroup: &group})
		}
	}
	return rows
}

// form checks a pinned form's schema: bounded and a JSON object when present.
func (p *problems) form(field string, f *PinnedForm) {
	if f == nil || len(f.Schema) == 0 {
		return
	}
	switch {
	case len(f.Schema) > MaxProtectedPayloadBytes:
		p.add(CodePayloadTooLarge, field+".schema", fmt.Sprintf("must be at most %d bytes", MaxProtectedPayloadBytes))
	case !jsonObject(f.Schema):
		p.fail(field+".schema", "must be a JSON object")
	}
}

// health checks a health finding supplied by a caller.
func (p *problems) health(field string, h Health) {
	switch h.Severity {
	case SeverityNone:
		if h.Code != "" || h.Message != "" {
			p.fail(field+".severity", "is required with a code or message")
		}
		return
	case SeverityAdvisory, SeverityBlocking:
	default:
		p.fail(field+".severity", "must be advisory or blocking")
	}
	p.text(field+".code", h.Code, MaxActionKeyLength, true, Identifier)
	p.text(field+".message", h.Message, MaxHealthMessageLength, false, Label)
}

// dedupeCandidates drops identical candidate rows (same source, participant and source group),
// keeping the first.
func dedupeCandidates(rows []Candidate) []Candidate {
	seen := make(map[string]bool, len(rows))
	out := rows[:0:0]
	for _, c := range rows {
		k := string(c.Source) + "\x01" + c.Participant.Key()
		if c.SourceGroup != nil {
			k += "\x01" + c.SourceGroup.Key()
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// dedupeRefs drops repeated participants, keeping the first.
func dedupeRefs(refs []ParticipantRef) []ParticipantRef {
	seen := make(map[string]bool, len(refs))
	out := refs[:0:0]
	for _, r := range refs {
		if !seen[r.Key()] {
			seen[r.Key()] = true
			out = append(out, r)
		}
	}
	return out
}

// cloneTask deep-copies t so a transition never shares memory with its input.
func cloneTask(t Task) Task {
	c := t
	c.Workflow.DefinitionVersion = clonePtr(t.Workflow.DefinitionVersion)
	c.Tags = slices.Clone(t.Tags)
	c.Requester = clonePtr(t.Requester)
	c.DueAt = clonePtr(t.DueAt)
	c.AssignedAt = clonePtr(t.AssignedAt)
	c.CompletedAt = clonePtr(t.CompletedAt)
	c.TransitionedAt = clonePtr(t.TransitionedAt)
	c.Assignee = clonePtr(t.Assignee)
	c.DelegatedBy = clonePtr(t.DelegatedBy)
	c.Assignment.Candidates = cloneCandidates(t.Assignment.Candidates)
	c.Assignment.Exclusions = slices.Clone(t.Assignment.Exclusions)
	c.Actions = slices.Clone(t.Actions)
	c.Protected = Protected{
		Instructions:          t.Protected.Instructions,
		Data:                  bytes.Clone(t.Protected.Data),
		Form:                  cloneForm(t.Protected.Form),
		CompletionData:        bytes.Clone(t.Protected.CompletionData),
		InvitationDefinitions: cloneInvitationDefinitions(t.Protected.InvitationDefinitions),
	}
	c.Outcome.CompletedBy = clonePtr(t.Outcome.CompletedBy)
	c.Outcome.OnBehalfOf = clonePtr(t.Outcome.OnBehalfOf)
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneCandidates(rows []Candidate) []Candidate {
	if rows == nil {
		return nil
	}
	out := make([]Candidate, len(rows))
	for i, c := range rows {
		c.SourceGroup = clonePtr(c.SourceGroup)
		out[i] = c
	}
	return out
}

func cloneForm(f *PinnedForm) *PinnedForm {
	if f == nil {
		return nil
	}
	c := *f
	c.Requested = clonePtr(f.Requested)
	c.Schema = bytes.Clone(f.Schema)
	return &c
}

func cloneInvitationDefinitions(defs []InvitationDefinition) []InvitationDefinition {
	if defs == nil {
		return nil
	}
	out := make([]InvitationDefinition, len(defs))
	for i, d := range defs {
		d.AllowedActions = slices.Clone(d.AllowedActions)
		out[i] = d
	}
	return out
}
