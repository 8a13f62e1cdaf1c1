package workflow

import "usertasks/models"

// The deadlines of a tenant's default deadline policy (issue 30 item 4) travel in the shape of
// the projection's `task.deadlines` (DeadlineSpec): the same members, parsed and validated
// alike. These convert them both ways for the deadline-policy endpoints.

// DeadlineDefinitions converts wire deadlines to the domain's definitions (not validated yet:
// models.NewDeadlinePolicy does that, as models.Project does for a projection).
func DeadlineDefinitions(specs []DeadlineSpec) []models.DeadlineDefinition {
	return deadlineDefinitions(specs)
}

// DeadlineSpecs converts validated definitions back to the wire (a participant without its
// tenant, its type stated).
func DeadlineSpecs(defs []models.DeadlineDefinition) []DeadlineSpec {
	out := make([]DeadlineSpec, len(defs))
	for i, d := range defs {
		s := DeadlineSpec{Kind: string(d.Kind), After: d.After, At: d.At, Actions: make([]DeadlineActionSpec, len(d.Actions))}
		for j, a := range d.Actions {
			w := DeadlineActionSpec{Type: string(a.Type), CandidateUsers: wireParticipants(a.CandidateUsers),
				CandidateGroups: wireParticipants(a.CandidateGroups), Priority: a.Priority}
			if a.To != nil {
				w.To = &NotifyTo{Audience: string(a.To.Audience), Participants: wireParticipants(a.To.Participants)}
			}
			s.Actions[j] = w
		}
		out[i] = s
	}
	return out
}

func wireParticipants(refs []models.ParticipantRef) []Participant {
	if refs == nil {
		return nil
	}
	out := make([]Participant, len(refs))
	for i, r := range refs {
		out[i] = Participant{Type: r.Type, Provider: r.Provider, ID: r.ID, DisplayName: r.DisplayName}
	}
	return out
}
