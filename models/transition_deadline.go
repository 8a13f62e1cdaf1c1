package models

import (
	"slices"
	"time"
)

// OpFireDeadline is the operation kind of a deadline's firing, EventDeadlineFired its event.
const (
	OpFireDeadline     OperationKind = "fire-deadline"
	EventDeadlineFired EventType     = "deadline-fired"
)

// CodeDeadlineSettled is a conflict only the due sweep sees: the deadline fired or was skipped
// before (another node's sweep won the race), so there is nothing to do.
const CodeDeadlineSettled Code = "deadline-settled"

// DeadlineFiring is what a due deadline does to its task (FireDeadline). The store writes it in
// one transaction, and only while the stored deadline is still pending.
type DeadlineFiring struct {
	// Deadline is the deadline settled: State fired or skipped, FiredAt now.
	Deadline Deadline
	// Change is the task's change when the deadline fired, nil when it was skipped. When
	// StateChanged it is a committed transition (revision +1, an operation); otherwise it only
	// appends the event (Task is the task with its next event sequence, ExpectedRevision its
	// revision, no operation).
	Change       *Change
	StateChanged bool
	// Escalated are told with an `escalated` notification: the recipients of the notify
	// actions and the new candidates of a reassign.
	Escalated []ParticipantRef
}

// FireDeadline decides a due deadline d of task t at now (SPEC 10.4). A start deadline fires
// while the task is Available or Unassigned, a completion deadline while it is open; otherwise
// it is skipped, settled all the same so that it never fires later. Firing applies the actions
// in order: notify (managers are the tenant's managers, given by the caller), reassign (replaces
// the candidate users and groups, live membership, exclusions kept; a completion deadline also
// releases the assignee), set-priority, flag (advisory health deadline-missed unless the task
// already has a finding).
//
// Refusals: Conflict(CodeDeadlineSettled) when d is not pending; Conflict(CodeNotDue) before
// its time; Conflict(CodeTransitionInProgress) while the task waits for the runtime (the next
// sweep decides again: the task may still come back open).
func FireDeadline(t Task, d Deadline, managers []ParticipantRef, now time.Time) (DeadlineFiring, error) {
	if err := checkStored(t); err != nil {
		return DeadlineFiring{}, err
	}
	if d.Tenant != t.Tenant || d.TaskID != t.ID {
		return DeadlineFiring{}, ErrNotFound
	}
	switch {
	case d.State != DeadlinePending:
		return DeadlineFiring{}, Conflict(CodeDeadlineSettled)
	case d.DueAt.After(now):
		return DeadlineFiring{}, Conflict(CodeNotDue)
	case t.Status.IsTransitional():
		return DeadlineFiring{}, Conflict(CodeTransitionInProgress)
	}
	settled := d
	settled.FiredAt = clonePtr(&now)
	if !deadlineHolds(t, d.Kind) {
		settled.State = DeadlineSkipped
		return DeadlineFiring{Deadline: settled}, nil
	}
	settled.State = DeadlineFired

	next := cloneTask(t)
	var escalated []ParticipantRef
	reassigned := false
	for _, a := range d.Actions {
		switch a.Type {
		case DeadlineNotify:
			escalated = append(escalated, notifyRecipients(next, a.To, managers)...)
		case DeadlineReassign:
			reassign(&next, a, d.Kind == DeadlineCompletion)
			escalated = append(escalated, a.CandidateUsers...)
			escalated = append(escalated, a.CandidateGroups...)
			reassigned = true
		case DeadlineSetPriority:
			if a.Priority != nil {
				next.Priority = *a.Priority
			}
		case DeadlineFlag:
			if next.Health.Severity == SeverityNone {
				next.Health = Health{Severity: SeverityAdvisory, Code: HealthDeadlineMissed, Message: "A deadline of the task was missed."}
			}
		}
	}
	settleParticipantsHealth(&next)
	if next.Health.Severity == SeverityNone && slices.ContainsFunc(d.Actions, func(a DeadlineAction) bool { return a.Type == DeadlineFlag }) {
		// A reassign just cleared no-participants: the flag still applies.
		next.Health = Health{Severity: SeverityAdvisory, Code: HealthDeadlineMissed, Message: "A deadline of the task was missed."}
	}
	metadata := map[string]any{"index": d.Index, "kind": d.Kind, "actions": d.ActionTypes()}
	firing := DeadlineFiring{Deadline: settled, Escalated: dedupeRefs(escalated)}

	if !changedState(t, next) {
		ev, err := newEvent(t, Actor{System: true}, EventDeadlineFired, metadata, now)
		if err != nil {
			return DeadlineFiring{}, err
		}
		after := cloneTask(t)
		after.LastEventSeq = ev.Seq
		firing.Change = &Change{Task: after, ExpectedRevision: t.Revision, Event: &ev}
		return firing, nil
	}
	ch, err := commit(t, next, transition{
		kind:        OpFireDeadline,
		event:       EventDeadlineFired,
		state:       OperationCompleted,
		requestHash: RequestHash(OpFireDeadline, t.Revision, map[string]any{"index": d.Index}),
		metadata:    metadata,
	}, now)
	if err != nil {
		return DeadlineFiring{}, err
	}
	ch.AssignmentChanged = reassigned
	firing.Change, firing.StateChanged = &ch, true
	return firing, nil
}

// deadlineHolds reports whether a deadline of kind still applies to t: nobody has taken the
// task (start), or it is still open (completion).
func deadlineHolds(t Task, kind DeadlineKind) bool {
	switch kind {
	case DeadlineStart:
		return t.Status == StatusAvailable || t.Status == StatusUnassigned
	case DeadlineCompletion:
		return t.Status.IsOpen()
	}
	return false
}

// notifyRecipients resolves a notify action's target on the task as it stands.
func notifyRecipients(t Task, to *NotifyTarget, managers []ParticipantRef) []ParticipantRef {
	if to == nil {
		return nil
	}
	switch to.Audience {
	case NotifyManagers:
		return managers
	case NotifyAssignee:
		if t.Assignee != nil {
			return []ParticipantRef{*t.Assignee}
		}
		return nil
	case NotifyCandidates:
		var out []ParticipantRef
		for _, c := range t.Assignment.Candidates {
			if c.Source != SourceInvitation {
				out = append(out, c.Participant)
			}
		}
		return out
	}
	return to.Participants
}

// reassign replaces t's candidate users and groups by a's (live membership; exclusions and
// invitation candidates kept) and, when release is set, gives the task back from its assignee.
func reassign(t *Task, a DeadlineAction, release bool) {
	var cands []Candidate
	for _, c := range t.Assignment.Candidates {
		if c.Source == SourceInvitation {
			cands = append(cands, c)
		}
	}
	for _, u := range a.CandidateUsers {
		cands = append(cands, Candidate{Participant: u, Source: SourceDirectUser})
	}
	for _, g := range a.CandidateGroups {
		cands = append(cands, Candidate{Participant: g, Source: SourceDirectGroup})
	}
	t.Assignment.Candidates = dedupeCandidates(cands)
	t.Assignment.Mode = MembershipLive
	t.CandidateSummary = t.Assignment.Summarize()
	if release && t.Assignee != nil {
		t.Assignee, t.AssignedAt = nil, nil
	}
	if t.Assignee == nil {
		t.Status = StatusUnassigned
		if hasParticipants(*t) {
			t.Status = StatusAvailable
		}
	}
}

// changedState reports whether a firing changed what the task's revision guards: status,
// assignee, candidates, priority or health.
func changedState(before, after Task) bool {
	if before.Status != after.Status || before.Priority != after.Priority || before.Health != after.Health {
		return true
	}
	if (before.Assignee == nil) != (after.Assignee == nil) || (before.Assignee != nil && !before.Assignee.Same(*after.Assignee)) {
		return true
	}
	return !slices.EqualFunc(before.Assignment.Candidates, after.Assignment.Candidates, func(a, b Candidate) bool {
		return a.Source == b.Source && a.Participant.Same(b.Participant)
	}) || before.Assignment.Mode != after.Assignment.Mode
}
