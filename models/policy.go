package models

// Read and action policy of SPEC 4. Commands enforce their own relationship inside the
// transitions; this file answers the questions the queries ask: may the actor see the task,
// its protected content, its history, and which actions should be offered.

// Action names of a summary's allowedActions.
const (
	ActClaim            = "claim"
	ActRelease          = "release"
	ActAssign           = "assign"
	ActUpdateScheduling = "update-scheduling"
	ActComplete         = "complete"
	ActCancel           = "cancel"
	ActInvite           = "invite"
	ActRetryResolution  = "retry-resolution"
)

// Relation is what connects an actor to a task.
type Relation struct {
	Manager   bool // a manager of the task's tenant
	Assignee  bool // a signed-in person assigned to the task
	Guest     bool // the guest a verified invitation assigned the task to
	Candidate bool // an eligible, non-excluded candidate
	Completer bool // completed (or requested the completion of) the task
	PastActor bool // appears as the actor of one of the task's events
}

// Relate computes the relation; pastActor comes from the event store.
func Relate(t Task, a Actor, pastActor bool) Relation {
	if a.System || a.Tenant != t.Tenant {
		return Relation{}
	}
	r := Relation{
		Manager:   manages(t, a),
		Assignee:  personAssignee(t, a),
		Guest:     guestAssignee(t, a),
		Candidate: t.IsEligibleCandidate(a),
		PastActor: pastActor && a.Guest == nil,
	}
	if by := t.Outcome.CompletedBy; by != nil && a.Guest == nil && by.Same(a.Subject) {
		r.Completer = true
	}
	return r
}

// CanReadSummary: managers, the assignee, eligible candidates, the completer and past actors,
// while no blocking health hides the task; a guest only its own task while it is assigned and
// not yet closed.
func CanReadSummary(t Task, a Actor, r Relation) bool { return canView(t, a, r, nil) }

// The decisions below are the one place SPEC 4 is decided for view, claim and complete. Each
// takes a *because: nil for the boolean answers, a recorder for an access explanation, which
// then lists the rules the same code applied (ExplainAccess).

// canView is the read-summary decision: the gate (tenant, permission, health), then any one
// relationship.
func canView(t Task, a Actor, r Relation, b *because) bool {
	if !sameTenant(t, a, b) {
		return false
	}
	ok := viewGate(t, a, r, b)
	switch {
	case r.Manager:
		b.add(RuleManager, EffectAllow)
	case r.Assignee:
		b.add(RuleAssignee, EffectAllow)
	case r.Guest && !t.Status.IsTerminal(): // a guest's access ends when the task closes
		b.add(RuleGuestAssignee, EffectAllow)
	case r.Candidate:
		candidacy(t, a, b)
	case r.Completer:
		b.add(RuleCompleter, EffectAllow)
	case r.PastActor:
		b.add(RulePastActor, EffectAllow)
	default:
		if b != nil {
			candidacy(t, a, b) // why the participant is not a candidate
		}
		b.add(RuleNoRelationship, EffectDeny)
		return false
	}
	return ok
}

// sameTenant: cross-tenant references never match (SPEC 4).
func sameTenant(t Task, a Actor, b *because) bool {
	if a.Tenant != t.Tenant {
		b.add(RuleOtherTenant, EffectDeny)
		return false
	}
	b.add(RuleTenant, EffectAllow)
	return true
}

// viewGate is what every decision on a visible task needs besides a relationship: the view
// permission (a guest's grant is its session) and no blocking health, which hides the task from
// everyone but managers (SPEC 3.8).
func viewGate(t Task, a Actor, r Relation, b *because) bool {
	ok := r.Guest || b.permitted(a, PermView)
	if t.Health.Blocking() {
		if r.Manager {
			b.add(RuleHealthBlockingManager, EffectNote, t.Health.Code)
		} else {
			b.add(RuleHealthBlocking, EffectDeny, t.Health.Code)
			ok = false
		}
	}
	return ok
}

// canClaim: an eligible, non-excluded candidate who may see the task, holds the claim
// permission, and the task is Available with nobody assigned.
func canClaim(t Task, a Actor, r Relation, b *because) bool {
	if !sameTenant(t, a, b) {
		return false
	}
	ok := viewGate(t, a, r, b)
	ok = b.permitted(a, PermClaim) && ok
	if b != nil {
		candidacy(t, a, b)
	}
	ok = r.Candidate && ok
	return b.status(t, t.Status == StatusAvailable && t.Assignee == nil, StatusAvailable) && ok
}

// canComplete: the assignee (or the guest assignee with an allowed action) of an Assigned task
// who may see it and, unless a guest, holds the complete permission.
func canComplete(t Task, a Actor, r Relation, b *because) bool {
	if !sameTenant(t, a, b) {
		return false
	}
	ok := viewGate(t, a, r, b)
	switch {
	case r.Guest:
		// guests hold no permissions; their grant is the session
		b.add(RuleGuestAssignee, EffectAllow)
		ok = len(a.Guest.AllowedActions) > 0 && ok
	case r.Assignee:
		ok = b.permitted(a, PermComplete) && ok
		b.add(RuleAssignee, EffectAllow)
		if b != nil && t.Assignment.Excludes(a.Subject) {
			b.add(RuleExclusionOverridden, EffectNote)
		}
	default:
		b.permitted(a, PermComplete)
		b.add(RuleNotAssignee, EffectDeny)
		ok = false
	}
	return b.status(t, t.Status == StatusAssigned, StatusAssigned) && ok
}

// candidacy is SPEC 3.6's candidate rule (IsEligibleCandidate): exclusions first, then the
// candidate rows in order; a group row counts only in live membership. A recorder learns which
// row matched, or why none did.
func candidacy(t Task, a Actor, b *because) bool {
	if a.System || a.Guest != nil || a.Tenant != t.Tenant {
		return false
	}
	if t.Assignment.Excludes(a.Subject) {
		b.add(RuleExcluded, EffectDeny)
		if t.Assignment.AllowExclusionOverride {
			b.add(RuleExclusionOverride, EffectNote)
		} else {
			b.add(RuleNoExclusionOverride, EffectNote)
		}
		return false
	}
	snapshot := t.Assignment.Mode == MembershipSnapshot
	var ignored []ParticipantRef // group rows a holds that snapshot membership does not count
	for _, c := range t.Assignment.Candidates {
		switch c.Source {
		case SourceDirectUser:
			if c.Participant.Same(a.Subject) {
				b.add(RuleCandidateUser, EffectAllow)
				return true
			}
		case SourceSnapshotMember:
			if c.Participant.Same(a.Subject) {
				if b != nil {
					var group string
					if c.SourceGroup != nil {
						group = c.SourceGroup.Label()
					}
					b.add(RuleSnapshotMember, EffectAllow, group)
				}
				return true
			}
		case SourceDirectGroup:
			if a.InGroup(c.Participant) {
				if !snapshot {
					b.add(RuleCandidateGroup, EffectAllow, c.Participant.Label())
					return true
				}
				if b != nil {
					ignored = append(ignored, c.Participant)
				}
			}
		}
	}
	for _, g := range ignored {
		b.add(RuleSnapshotGroupIgnored, EffectNote, g.Label())
	}
	if absent, ok := SubstituteCandidacy(t, a); ok {
		b.add(RuleSubstitute, EffectAllow, absent.Label())
		return true
	}
	b.add(RuleNotCandidate, EffectDeny)
	return false
}

// SubstituteCandidacy is the absent user a's candidacy for t stands on (SPEC 10.5): a
// direct-user candidate a stands in for (Actor.StandsInFor). Only direct candidate users: a
// group or snapshot membership of the absent user is theirs alone. Exclusions of a itself are
// checked by candidacy before.
func SubstituteCandidacy(t Task, a Actor) (ParticipantRef, bool) {
	if len(a.StandsInFor) == 0 {
		return ParticipantRef{}, false
	}
	for _, c := range t.Assignment.Candidates {
		if c.Source == SourceDirectUser && a.StandsIn(c.Participant) && !t.Assignment.Excludes(c.Participant) {
			return c.Participant, true
		}
	}
	return ParticipantRef{}, false
}

// CanReadProtected: managers; the assignee (or guest assignee) while open or transitional; the
// completer once terminal.
func CanReadProtected(t Task, a Actor, r Relation) bool {
	if !CanReadSummary(t, a, r) {
		return false
	}
	switch {
	case r.Manager:
		return true
	case (r.Assignee || r.Guest) && !t.Status.IsTerminal():
		return true
	case r.Completer && t.Status.IsTerminal():
		return true
	}
	return false
}

// Disclosure says which parts of a task the caller may see.
type Disclosure struct {
	CanViewProtected bool
	CanViewWorkflow  bool
	CanViewHistory   bool
	GuestVisible     bool
}

// Disclose derives the disclosure of a readable task.
func Disclose(t Task, a Actor, r Relation) Disclosure {
	protected := CanReadProtected(t, a, r)
	return Disclosure{
		CanViewProtected: protected,
		CanViewWorkflow:  r.Manager || (protected && !r.Guest),
		CanViewHistory:   protected && !r.Guest,
		GuestVisible:     t.Assignee != nil && t.Assignee.IsGuest(),
	}
}

// AllowedActions lists the commands the actor may run on the task now: permission,
// relationship and state all allow them.
func AllowedActions(t Task, a Actor, r Relation) []string {
	if !CanReadSummary(t, a, r) {
		return []string{}
	}
	out := []string{}
	add := func(ok bool, action, perm string) {
		if ok && ActorCan(a, perm) {
			out = append(out, action)
		}
	}
	open := t.Status.IsOpen()
	if canClaim(t, a, r, nil) {
		out = append(out, ActClaim)
	}
	add(r.Assignee && open, ActRelease, PermClaim)
	add(r.Manager && open, ActAssign, PermAssign)
	add(r.Manager && open, ActUpdateScheduling, PermUpdate)
	if canComplete(t, a, r, nil) {
		out = append(out, ActComplete)
	}
	add(r.Manager && open && t.CancellationEnabled, ActCancel, PermCancel)
	add(r.Manager && open && len(t.Protected.InvitationDefinitions) > 0, ActInvite, PermInvite)
	add(r.Manager && !t.Status.IsTerminal(), ActRetryResolution, PermSupervise)
	return out
}
