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
func CanReadSummary(t Task, a Actor, r Relation) bool {
	if !ActorCan(a, PermView) && !r.Guest {
		return false
	}
	if r.Manager {
		return true
	}
	if t.Health.Blocking() {
		return false
	}
	// A guest's access ends when the task closes (its session dies with it).
	return r.Assignee || (r.Guest && !t.Status.IsTerminal()) || r.Candidate || r.Completer || r.PastActor
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
	add(r.Candidate && t.Status == StatusAvailable && t.Assignee == nil, ActClaim, PermClaim)
	add(r.Assignee && open, ActRelease, PermClaim)
	add(r.Manager && open, ActAssign, PermAssign)
	add(r.Manager && open, ActUpdateScheduling, PermUpdate)
	completeOK := t.Status == StatusAssigned && (r.Assignee || r.Guest)
	if r.Guest {
		completeOK = completeOK && len(a.Guest.AllowedActions) > 0
		if completeOK {
			out = append(out, ActComplete) // guests hold no permissions; their grant is the session
		}
	} else {
		add(completeOK, ActComplete, PermComplete)
	}
	add(r.Manager && open && t.CancellationEnabled, ActCancel, PermCancel)
	add(r.Manager && open && len(t.Protected.InvitationDefinitions) > 0, ActInvite, PermInvite)
	add(r.Manager && !t.Status.IsTerminal(), ActRetryResolution, PermSupervise)
	return out
}
