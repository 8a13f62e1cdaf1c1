package usertask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Deadlines escalate a task that nobody takes, or nobody finishes, by themselves (User Tasks'
// SPEC 10.4, docs/deadlines.md): Definition.Deadlines passes them through to the projection,
// and User Tasks' due sweep fires each once at its time. User Tasks validates them strictly
// (at most 5 deadlines of 1 to 5 actions, after from 1 s to 365 days): an invalid deadline
// fails Await with the non-retryable refusal naming the member, e.g.
// task.deadlines[0].actions[0].type.

// DeadlineKind says what a deadline waits for.
type DeadlineKind string

const (
	// DeadlineStart fires while nobody has taken the task (Available or Unassigned).
	DeadlineStart DeadlineKind = "start"
	// DeadlineCompletion fires while the task is still open.
	DeadlineCompletion DeadlineKind = "completion"
)

// Deadline is one deadline of a task: exactly one of After (from the task's creation in User
// Tasks) and At, and its actions in order.
type Deadline struct {
	Kind    DeadlineKind
	After   time.Duration
	At      time.Time
	Actions []DeadlineAction
}

// DeadlineAction is one action of a deadline, as the projection carries it; build it with
// NotifyManagers, NotifyCandidates, NotifyAssignee, NotifyPeople, Reassign, SetPriority or
// Flag.
type DeadlineAction struct {
	Type            string        `json:"type"`
	To              *NotifyTo     `json:"to,omitempty"`
	CandidateUsers  []Participant `json:"candidateUsers,omitempty"`
	CandidateGroups []Participant `json:"candidateGroups,omitempty"`
	Priority        *int          `json:"priority,omitempty"`
}

// NotifyTo is a notify action's recipients: an audience ("managers", "candidates",
// "assignee"), or named users and groups.
type NotifyTo struct {
	Audience string
	Users    []Participant
	Groups   []Participant
}

// NotifyManagers tells the tenant's managers.
func NotifyManagers() DeadlineAction { return notify(NotifyTo{Audience: "managers"}) }

// NotifyCandidates tells the task's candidates.
func NotifyCandidates() DeadlineAction { return notify(NotifyTo{Audience: "candidates"}) }

// NotifyAssignee tells the task's assignee.
func NotifyAssignee() DeadlineAction { return notify(NotifyTo{Audience: "assignee"}) }

// NotifyPeople tells named users and groups. User Tasks delivers only to those who may read
// the task: to escalate to someone new, Reassign to them.
func NotifyPeople(users, groups []Participant) DeadlineAction {
	return notify(NotifyTo{Users: users, Groups: groups})
}

func notify(to NotifyTo) DeadlineAction { return DeadlineAction{Type: "notify", To: &to} }

// Reassign replaces the task's candidate users and groups (exclusions kept); a completion
// deadline also releases the assignee.
func Reassign(users, groups []Participant) DeadlineAction {
	return DeadlineAction{Type: "reassign", CandidateUsers: users, CandidateGroups: groups}
}

// SetPriority sets the task's priority (0–100).
func SetPriority(priority int) DeadlineAction {
	return DeadlineAction{Type: "set-priority", Priority: &priority}
}

// Flag marks the task with the advisory health finding deadline-missed.
func Flag() DeadlineAction { return DeadlineAction{Type: "flag"} }

// wireParticipant is a named recipient on the wire: its type says user or group.
type wireParticipant struct {
	Type        string `json:"type"`
	Provider    string `json:"provider,omitempty"`
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
}

// MarshalJSON writes the audience as a string or the named participants as a list.
func (n NotifyTo) MarshalJSON() ([]byte, error) {
	if n.Audience != "" {
		return json.Marshal(n.Audience)
	}
	out := make([]wireParticipant, 0, len(n.Users)+len(n.Groups))
	for _, u := range n.Users {
		out = append(out, wireParticipant{Type: "user", Provider: u.Provider, ID: u.ID, DisplayName: u.DisplayName})
	}
	for _, g := range n.Groups {
		out = append(out, wireParticipant{Type: "group", Provider: g.Provider, ID: g.ID, DisplayName: g.DisplayName})
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote (workflow inputs and the memo round-trip).
func (n *NotifyTo) UnmarshalJSON(b []byte) error {
	*n = NotifyTo{}
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &n.Audience)
	}
	var ps []wireParticipant
	if err := json.Unmarshal(b, &ps); err != nil {
		return err
	}
	for _, p := range ps {
		v := Participant{Provider: p.Provider, ID: p.ID, DisplayName: p.DisplayName}
		if p.Type == "group" {
			n.Groups = append(n.Groups, v)
		} else {
			n.Users = append(n.Users, v)
		}
	}
	return nil
}

// DeadlineBody is a deadline in the projection: after as an ISO 8601 duration, at as RFC 3339.
type DeadlineBody struct {
	Kind    DeadlineKind     `json:"kind"`
	After   string           `json:"after,omitempty"`
	At      string           `json:"at,omitempty"`
	Actions []DeadlineAction `json:"actions"`
}

// errDeadlineWhen: the one check made here, as the wire cannot say it otherwise (a zero
// After and a zero At are both "absent"); the rest is User Tasks' to validate.
var errDeadlineWhen = errors.New("needs exactly one of After and At")

// deadlineBodies converts the definition's deadlines for the projection.
func deadlineBodies(ds []Deadline) ([]DeadlineBody, error) {
	if ds == nil {
		return nil, nil
	}
	out := make([]DeadlineBody, len(ds))
	for i, d := range ds {
		if (d.After == 0) == d.At.IsZero() {
			return nil, fmt.Errorf("usertask: deadline %d %w", i, errDeadlineWhen)
		}
		b := DeadlineBody{Kind: d.Kind, Actions: d.Actions}
		if d.After != 0 {
			b.After = isoDuration(d.After)
		} else {
			b.At = d.At.UTC().Format(time.RFC3339Nano)
		}
		out[i] = b
	}
	return out, nil
}

// isoDuration writes d as an ISO 8601 duration of days, hours, minutes and seconds ("P1DT2H",
// "PT90M" is "PT1H30M"); a negative duration keeps its sign so that User Tasks refuses it by
// name rather than this package guessing.
func isoDuration(d time.Duration) string {
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	b.WriteByte('P')
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	if days > 0 {
		b.WriteString(strconv.FormatInt(int64(days), 10) + "D")
	}
	if d == 0 {
		if days == 0 {
			return b.String() + "T0S"
		}
		return b.String()
	}
	b.WriteByte('T')
	if h := d / time.Hour; h > 0 {
		b.WriteString(strconv.FormatInt(int64(h), 10) + "H")
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		b.WriteString(strconv.FormatInt(int64(m), 10) + "M")
		d -= m * time.Minute
	}
	if d > 0 {
		b.WriteString(strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "S")
	}
	return b.String()
}
