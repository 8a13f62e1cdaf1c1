package models

import "strings"

// Permissions of SPEC 4, each `{resource}:{verb}`. No verb implies another: `claim` also covers
// release, but nothing else is implied.
const (
	PermView             = "user-tasks:view"
	PermClaim            = "user-tasks:claim" // also release
	PermComplete         = "user-tasks:complete"
	PermAssign           = "user-tasks:assign"
	PermUpdate           = "user-tasks:update"
	PermCancel           = "user-tasks:cancel"
	PermInvite           = "user-tasks:invite"
	PermSupervise        = "user-tasks:supervise"
	PermParticipantsView = "user-tasks/participants:view"
	PermRuntimeWrite     = "user-tasks/runtime:write"
)

// wildcard stands for any verb, any resource, any sub-resource, or, alone, everything.
const wildcard = "*"

// HasPermission reports whether any grant covers the required permission. A grant is
// `{resource}:{verb}` where the verb may be `*` (any verb of that resource only, not its
// sub-resources), the resource may be `*` (that verb on any resource), the resource may end in
// `/*` (the resource itself and every sub-resource: `user-tasks/*:view` covers `user-tasks:view`
// and `user-tasks/participants:view`), or the grant may be `*` alone (everything). Matching is
// exact and case-sensitive; unknown, legacy or malformed grants (`read:user-tasks`,
// `user-tasks`, `:view`, `user-tasks:`) grant nothing. A required permission that is itself
// malformed or contains a wildcard is never granted.
func HasPermission(grants []string, required string) bool {
	_, ok := GrantFor(grants, required)
	return ok
}

// GrantFor returns the first grant that covers the required permission, by the rules of
// HasPermission, so an access explanation can name the grant that matched.
func GrantFor(grants []string, required string) (string, bool) {
	resource, verb, ok := splitPermission(required)
	if !ok || strings.Contains(required, wildcard) {
		return "", false
	}
	for _, g := range grants {
		if grantCovers(g, resource, verb) {
			return g, true
		}
	}
	return "", false
}

// ActorCan reports whether the actor's grants cover perm. Only token grants count: guests and
// the system actor are authorized by their own rules (SPEC 4) and hold no grants here.
func ActorCan(a Actor, perm string) bool {
	return HasPermission(a.Permissions, perm)
}

// grantCovers matches one grant against a concrete resource and verb.
func grantCovers(grant, resource, verb string) bool {
	if grant == wildcard {
		return true
	}
	gr, gv, ok := splitPermission(grant)
	if !ok {
		return false
	}
	if gv != wildcard && gv != verb {
		return false
	}
	switch {
	case gr == wildcard || gr == resource:
		return true
	case strings.HasSuffix(gr, "/"+wildcard):
		base := strings.TrimSuffix(gr, "/"+wildcard)
		if base == "" || strings.Contains(base, wildcard) {
			return false
		}
		return resource == base || strings.HasPrefix(resource, base+"/")
	}
	return false
}

// splitPermission cuts `{resource}:{verb}`; both parts must be present and the verb a single word.
func splitPermission(p string) (resource, verb string, ok bool) {
	resource, verb, ok = strings.Cut(p, ":")
	if !ok || resource == "" || verb == "" || strings.Contains(verb, ":") {
		return "", "", false
	}
	return resource, verb, true
}
