package models

import (
	"encoding/json"
	"fmt"
	"time"
)

// Substitution (SPEC 10.5): while a user's absence is active, an assignment to them goes to
// their substitute. The stores apply it inside the change's transaction, with the absence read
// there (under the task's lock, at the transaction's database time): SubstitutionTarget names
// whose absence to read, Substitute forwards the change.

// substitutedEvents are the events that assign a task to someone other than the actor: a
// manager's assign, a delegation and a projection with a direct assignee. A claim is one's own,
// a return hands the task back to the person who delegated it, a guest holds a task through its
// invitation, and a deadline's reassign never assigns (it replaces candidates).
var substitutedEvents = map[EventType]string{
	EventAssigned:  "assignee",
	EventDelegated: "to",
	EventCreated:   "",
}

// SubstitutionTarget returns the user c assigns the task to whose absence could forward it:
// c (a change of before, nil for a creation) gives the task a new user assignee by one of the
// substituted events. ok is false when no absence can matter.
func SubstitutionTarget(before *Task, c *Change) (ParticipantRef, bool) {
	if c == nil || c.Replay != nil || c.Event == nil {
		return ParticipantRef{}, false
	}
	if _, ok := substitutedEvents[c.Event.Type]; !ok {
		return ParticipantRef{}, false
	}
	a := c.Task.Assignee
	if a == nil || a.Type != UserParticipant || a.IsGuest() || c.Task.Status != StatusAssigned {
		return ParticipantRef{}, false
	}
	if before != nil && before.Assignee != nil && before.Assignee.Same(*a) {
		return ParticipantRef{}, false
	}
	return *a, true
}

// Substitute forwards c's assignment to abs.Substitute when abs is the absence of the user c
// assigns the task to (SubstitutionTarget) and is active at now: the task is Assigned to the
// substitute and the event's metadata names the substitute where it named the assignee and
// carries substituteFor, the absent user. One hop only: the caller reads the target's absence
// and nothing else, so a substitute's own absence forwards nothing. It reports whether it
// forwarded. Nothing is forwarded to a substitute the task excludes, nor to one who held the
// task already (a delegation by the substitute to the absent user would make the task its own
// delegator's): the assignment then goes to the absent user as asked.
func Substitute(before *Task, c *Change, abs Absence, now time.Time) (bool, error) {
	target, ok := SubstitutionTarget(before, c)
	if !ok || !abs.ActiveAt(now) || abs.Tenant != c.Task.Tenant || !abs.User.Same(target) {
		return false, nil
	}
	sub := abs.Substitute
	sub.Tenant = c.Task.Tenant
	if sub.Type == "" {
		sub.Type = UserParticipant
	}
	if sub.Same(target) || c.Task.Assignment.Excludes(sub) || (before != nil && before.Assignee != nil && before.Assignee.Same(sub)) {
		return false, nil
	}
	meta, err := substitutedMetadata(c.Event.Metadata, substitutedEvents[c.Event.Type], target, sub)
	if err != nil {
		return false, err
	}
	c.Task.Assignee = &sub
	c.Event.Metadata = meta
	return true, nil
}

// substitutedMetadata adds substituteFor to an event's metadata object and, under key (when
// not empty), names the substitute instead of the absent user.
func substitutedMetadata(raw json.RawMessage, key string, absent, sub ParticipantRef) (json.RawMessage, error) {
	fields := map[string]any{"substituteFor": toWire(absent)}
	if key != "" {
		fields[key] = toWire(sub)
	}
	return withMetadata(raw, fields)
}

// withMetadata adds fields to an event's metadata object (replacing those of the same name).
func withMetadata(raw json.RawMessage, fields map[string]any) (json.RawMessage, error) {
	out := map[string]any{}
	if len(raw) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, fmt.Errorf("models: event metadata is no object: %w", err)
		}
		for k, v := range obj {
			out[k] = v
		}
	}
	for k, v := range fields {
		out[k] = v
	}
	return eventMetadata(out)
}
