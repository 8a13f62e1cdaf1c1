package models

import (
	"fmt"
	"math"
	"time"
)

// deadlines validates a projection's deadline definitions strictly (SPEC 10.4) and returns
// them as the task's stored deadlines, due from created. Every problem names its field, e.g.
// `deadlines[2].actions[0].type`.
func (p *problems) deadlines(defs []DeadlineDefinition, tenant string, created time.Time) []Deadline {
	if len(defs) > MaxDeadlines {
		p.fail("deadlines", fmt.Sprintf("must be at most %d deadlines, got %d", MaxDeadlines, len(defs)))
		return nil
	}
	var out []Deadline
	for i, def := range defs {
		f := fmt.Sprintf("deadlines[%d]", i)
		before := len(p.fields)
		switch def.Kind {
		case DeadlineStart, DeadlineCompletion:
		case "":
			p.fail(f+".kind", "is required")
		default:
			p.fail(f+".kind", "must be start or completion")
		}
		due, ok := p.deadlineDue(f, def, created)
		actions := p.deadlineActions(f+".actions", def.Actions, tenant)
		if ok && len(p.fields) == before {
			out = append(out, Deadline{Tenant: tenant, Index: i, Kind: def.Kind, DueAt: due, Actions: actions, State: DeadlinePending})
		}
	}
	return out
}

// deadlineDue is when def comes due: created + after, or at. Exactly one of the two is given.
func (p *problems) deadlineDue(f string, def DeadlineDefinition, created time.Time) (time.Time, bool) {
	switch {
	case def.After != "" && def.At != "":
		p.fail(f, "must have either after or at, not both")
	case def.After != "":
		d, err := ParseDeadlineAfter(def.After)
		if err != nil {
			p.fail(f+".after", err.Error())
			return time.Time{}, false
		}
		return created.Add(d).UTC(), true
	case def.At != "":
		at, err := time.Parse(time.RFC3339Nano, def.At)
		if err != nil {
			p.fail(f+".at", "must be an RFC 3339 time")
			return time.Time{}, false
		}
		if at.Before(minDeadlineAt) {
			// Every dialect stores it (SQL Server's DATETIME2 and MariaDB's DATETIME start later
			// than year 0), and a deadline that far back is a mistake anyway.
			p.fail(f+".at", "must be a time after 1970")
			return time.Time{}, false
		}
		return at.UTC(), true
	default:
		p.fail(f, "must have after or at")
	}
	return time.Time{}, false
}

// minDeadlineAt is the earliest `at` a deadline may name.
var minDeadlineAt = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// ParseDeadlineAfter reads a deadline's `after`: an ISO 8601 duration of weeks, days, hours,
// minutes and seconds from PT1S to P365D (years and months are refused, their length depends
// on the calendar).
func ParseDeadlineAfter(s string) (time.Duration, error) {
	secs, err := isoSeconds(s)
	if err != nil {
		return 0, err
	}
	if secs < MinDeadlineAfter.Seconds() {
		return 0, fmt.Errorf("must be at least PT1S")
	}
	if secs > MaxDeadlineAfter.Seconds() {
		return 0, fmt.Errorf("must be at most P365D")
	}
	return time.Duration(math.Round(secs * float64(time.Second))), nil
}

// deadlineActions validates 1 to MaxDeadlineActions actions; each type admits only its own
// members.
func (p *problems) deadlineActions(f string, actions []DeadlineAction, tenant string) []DeadlineAction {
	switch {
	case len(actions) == 0:
		p.fail(f, "must have at least one action")
		return nil
	case len(actions) > MaxDeadlineActions:
		p.fail(f, fmt.Sprintf("must be at most %d actions, got %d", MaxDeadlineActions, len(actions)))
		return nil
	}
	out := make([]DeadlineAction, 0, len(actions))
	for j, a := range actions {
		af := fmt.Sprintf("%s[%d]", f, j)
		next := DeadlineAction{Type: a.Type}
		notAllowed := func(member string, present bool) {
			if present {
				p.fail(af+"."+member, "is not allowed for "+string(a.Type))
			}
		}
		switch a.Type {
		case DeadlineNotify:
			next.To = p.notifyTarget(af+".to", a.To, tenant)
			notAllowed("candidateUsers", a.CandidateUsers != nil)
			notAllowed("candidateGroups", a.CandidateGroups != nil)
			notAllowed("priority", a.Priority != nil)
		case DeadlineReassign:
			if len(a.CandidateUsers) == 0 && len(a.CandidateGroups) == 0 {
				p.fail(af, "must name candidateUsers or candidateGroups")
			}
			if n := len(a.CandidateUsers) + len(a.CandidateGroups); n > maxDeadlineParticipants {
				p.fail(af, fmt.Sprintf("must name at most %d candidates, got %d", maxDeadlineParticipants, n))
			}
			next.CandidateUsers = p.deadlineRefs(af+".candidateUsers", a.CandidateUsers, tenant, UserParticipant)
			next.CandidateGroups = p.deadlineRefs(af+".candidateGroups", a.CandidateGroups, tenant, GroupParticipant)
			notAllowed("to", a.To != nil)
			notAllowed("priority", a.Priority != nil)
		case DeadlineSetPriority:
			switch {
			case a.Priority == nil:
				p.fail(af+".priority", "is required")
			case *a.Priority < MinPriority || *a.Priority > MaxPriority:
				p.add(CodeInvalidPriority, af+".priority", fmt.Sprintf("must be between %d and %d", MinPriority, MaxPriority))
			default:
				v := *a.Priority
				next.Priority = &v
			}
			notAllowed("to", a.To != nil)
			notAllowed("candidateUsers", a.CandidateUsers != nil)
			notAllowed("candidateGroups", a.CandidateGroups != nil)
		case DeadlineFlag:
			notAllowed("to", a.To != nil)
			notAllowed("candidateUsers", a.CandidateUsers != nil)
			notAllowed("candidateGroups", a.CandidateGroups != nil)
			notAllowed("priority", a.Priority != nil)
		case "":
			p.fail(af+".type", "is required")
		default:
			p.fail(af+".type", "must be notify, reassign, set-priority or flag")
		}
		out = append(out, next)
	}
	return out
}

// notifyTarget validates a notify action's `to`: an audience, or 1 to maxDeadlineParticipants
// named users or groups (a participant without a type is a user).
func (p *problems) notifyTarget(f string, to *NotifyTarget, tenant string) *NotifyTarget {
	switch {
	case to == nil || (to.Audience == "" && len(to.Participants) == 0):
		p.fail(f, "is required: managers, candidates, assignee or a list of participants")
		return nil
	case to.Audience != "" && len(to.Participants) > 0:
		p.fail(f, "must be an audience or a list of participants, not both")
		return nil
	case to.Audience != "":
		switch to.Audience {
		case NotifyManagers, NotifyCandidates, NotifyAssignee:
			return &NotifyTarget{Audience: to.Audience}
		}
		p.fail(f, "must be managers, candidates, assignee or a list of participants")
		return nil
	case len(to.Participants) > maxDeadlineParticipants:
		p.fail(f, fmt.Sprintf("must name at most %d participants", maxDeadlineParticipants))
		return nil
	}
	out := &NotifyTarget{}
	for i, ref := range to.Participants {
		want := UserParticipant
		if ref.Type == GroupParticipant {
			want = GroupParticipant
		}
		if r, ok := p.participant(fmt.Sprintf("%s[%d]", f, i), ref, tenant, want, CodeValidationFailed); ok {
			out.Participants = append(out.Participants, r)
		}
	}
	out.Participants = dedupeRefs(out.Participants)
	return out
}

// deadlineRefs validates a reassign action's candidates of one type, without duplicates.
func (p *problems) deadlineRefs(f string, refs []ParticipantRef, tenant string, want ParticipantType) []ParticipantRef {
	var out []ParticipantRef
	for i, ref := range refs {
		if r, ok := p.participant(fmt.Sprintf("%s[%d]", f, i), ref, tenant, want, CodeValidationFailed); ok {
			out = append(out, r)
		}
	}
	return dedupeRefs(out)
}
