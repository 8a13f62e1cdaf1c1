package models

import "time"

// Deadlines escalate a waiting task by themselves (SPEC 10.4): a projection declares up to
// MaxDeadlines, each due a duration after creation or at a time, and the due sweep fires each
// once when its condition still holds — a start deadline while nobody has taken the task, a
// completion deadline while it is open — applying its actions in one change.

// Limits of SPEC 10.4.
const (
	MaxDeadlines       = 5
	MaxDeadlineActions = 5
	// MinDeadlineAfter and MaxDeadlineAfter bound `after` (PT1S–P365D).
	MinDeadlineAfter = time.Second
	MaxDeadlineAfter = 365 * 24 * time.Hour
	// maxDeadlineParticipants bounds the participants one action names (notify, reassign), so
	// the stored actions stay small.
	maxDeadlineParticipants = 50
)

// DeadlineKind says what a deadline waits for.
type DeadlineKind string

const (
	// DeadlineStart fires while the task is still Available or Unassigned (nobody took it).
	DeadlineStart DeadlineKind = "start"
	// DeadlineCompletion fires while the task is still open.
	DeadlineCompletion DeadlineKind = "completion"
)

// DeadlineActionType is what a firing deadline does.
type DeadlineActionType string

const (
	DeadlineNotify      DeadlineActionType = "notify"
	DeadlineReassign    DeadlineActionType = "reassign"
	DeadlineSetPriority DeadlineActionType = "set-priority"
	DeadlineFlag        DeadlineActionType = "flag"
)

// NotifyAudience is a named group of recipients of a notify action.
type NotifyAudience string

const (
	NotifyManagers   NotifyAudience = "managers"
	NotifyCandidates NotifyAudience = "candidates"
	NotifyAssignee   NotifyAudience = "assignee"
)

// HealthDeadlineMissed (advisory): a deadline with a flag action fired.
const HealthDeadlineMissed = "deadline-missed"

// NotifyTarget is a notify action's `to`: an audience, or named participants (one of the two).
type NotifyTarget struct {
	Audience     NotifyAudience   `json:"audience,omitempty"`
	Participants []ParticipantRef `json:"participants,omitempty"`
}

// DeadlineAction is one action of a deadline; the members used depend on Type.
type DeadlineAction struct {
	Type            DeadlineActionType `json:"type"`
	To              *NotifyTarget      `json:"to,omitempty"`              // notify
	CandidateUsers  []ParticipantRef   `json:"candidateUsers,omitempty"`  // reassign
	CandidateGroups []ParticipantRef   `json:"candidateGroups,omitempty"` // reassign
	Priority        *int               `json:"priority,omitempty"`        // set-priority
}

// DeadlineDefinition is a deadline as a projection declares it: exactly one of After (an
// ISO 8601 duration from creation) and At (an RFC 3339 time), both as given on the wire so that
// a bad value is a validation error naming the field.
type DeadlineDefinition struct {
	Kind    DeadlineKind
	After   string
	At      string
	Actions []DeadlineAction
}

// DeadlineState is where a stored deadline is.
type DeadlineState string

const (
	// DeadlinePending: not yet due, or due and not yet swept.
	DeadlinePending DeadlineState = "pending"
	// DeadlineFired: it fired; its actions were applied.
	DeadlineFired DeadlineState = "fired"
	// DeadlineSkipped: it came due when its condition no longer held (the task was taken or
	// closed); it never fires.
	DeadlineSkipped DeadlineState = "skipped"
)

// Deadline is one stored deadline of a task, keyed by (task, Index): Index is its position in
// the projection's list.
type Deadline struct {
	Tenant  string
	TaskID  string
	Index   int
	Kind    DeadlineKind
	DueAt   time.Time
	Actions []DeadlineAction
	State   DeadlineState
	// FiredAt is when the sweep settled it (fired or skipped); nil while pending.
	FiredAt *time.Time
}

// ActionTypes lists the types of d's actions in order (the event's metadata).
func (d Deadline) ActionTypes() []string {
	out := make([]string, len(d.Actions))
	for i, a := range d.Actions {
		out[i] = string(a.Type)
	}
	return out
}

// DeadlineKey is a position in the due walk: deadlines are walked by due time, task id, index.
type DeadlineKey struct {
	DueAt  time.Time
	TaskID string
	Index  int
}

// Key is d's position in the due walk.
func (d Deadline) Key() DeadlineKey {
	return DeadlineKey{DueAt: d.DueAt, TaskID: d.TaskID, Index: d.Index}
}
