package models

// MayDelegate reports whether the pages may offer a the delegation of t now (SPEC 10.5): the
// permission, relationship and state checks of the delegate command (Delegate and
// tasks.Service.Delegate) — a signed-in person with the claim or assign permission, the
// assignee or a manager, the task Assigned and not hidden from them. Delegate and return are
// not in AllowedActions: those values are the API's allowedActions, whose list the API fixes.
func MayDelegate(t Task, a Actor) bool {
	return a.Guest == nil && !a.System && (ActorCan(a, PermClaim) || ActorCan(a, PermAssign)) &&
		t.Status == StatusAssigned && mayDelegate(t, a)
}

// MayReturn reports whether a may return t to its delegator now: the delegate (the signed-in
// assignee of a delegated task) with the claim permission, as Return decides.
func MayReturn(t Task, a Actor) bool {
	return ActorCan(a, PermClaim) && t.Status == StatusAssigned && t.DelegatedBy != nil && mayReturn(t, a)
}
