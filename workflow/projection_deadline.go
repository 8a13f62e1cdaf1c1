package workflow

import (
	"bytes"
	"encoding/json"
	"reflect"

	"usertasks/models"
)

// DeadlineSpec is one member of `task.deadlines` (SPEC 10.4): exactly one of after (an ISO 8601
// duration from creation) and at (an RFC 3339 time), and 1 to 5 actions. Both stay strings on
// the wire so that a bad value is a validation error naming the field.
type DeadlineSpec struct {
	Kind    string               `json:"kind"`
	After   string               `json:"after,omitempty"`
	At      string               `json:"at,omitempty"`
	Actions []DeadlineActionSpec `json:"actions"`
}

// DeadlineActionSpec is one action of a deadline: notify (to), reassign (candidateUsers,
// candidateGroups), set-priority (priority) or flag.
type DeadlineActionSpec struct {
	Type            string        `json:"type"`
	To              *NotifyTo     `json:"to,omitempty"`
	CandidateUsers  []Participant `json:"candidateUsers,omitempty"`
	CandidateGroups []Participant `json:"candidateGroups,omitempty"`
	Priority        *int          `json:"priority,omitempty"`
}

// NotifyTo is a notify action's `to`: "managers", "candidates", "assignee", or a list of
// participants (users unless their type says group).
type NotifyTo struct {
	Audience     string
	Participants []Participant
}

// UnmarshalJSON accepts a string or an array of participants; an unknown member of a
// participant is refused here, as everywhere in a projection.
func (n *NotifyTo) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &n.Audience)
	}
	if len(b) > 0 && b[0] == '[' {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		return dec.Decode(&n.Participants)
	}
	return &json.UnmarshalTypeError{Value: "value " + string(b), Type: reflect.TypeFor[NotifyTo]()}
}

// MarshalJSON writes the audience or the participants (the OpenAPI examples, the loopback).
func (n NotifyTo) MarshalJSON() ([]byte, error) {
	if n.Audience != "" {
		return json.Marshal(n.Audience)
	}
	return json.Marshal(n.Participants)
}

// deadlineDefinitions converts the wire deadlines; the domain validates them.
func deadlineDefinitions(specs []DeadlineSpec) []models.DeadlineDefinition {
	if specs == nil {
		return nil
	}
	out := make([]models.DeadlineDefinition, len(specs))
	for i, s := range specs {
		d := models.DeadlineDefinition{Kind: models.DeadlineKind(s.Kind), After: s.After, At: s.At}
		for _, a := range s.Actions {
			act := models.DeadlineAction{
				Type:            models.DeadlineActionType(a.Type),
				CandidateUsers:  wireRefs(a.CandidateUsers, models.UserParticipant),
				CandidateGroups: wireRefs(a.CandidateGroups, models.GroupParticipant),
				Priority:        a.Priority,
			}
			if a.To != nil {
				act.To = &models.NotifyTarget{Audience: models.NotifyAudience(a.To.Audience), Participants: wireRefs(a.To.Participants, "")}
			}
			d.Actions = append(d.Actions, act)
		}
		out[i] = d
	}
	return out
}
