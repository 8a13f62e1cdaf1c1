package storekit

import (
	"slices"
	"time"

	"usertasks/models"
)

// PersonalScope reports whether f's actor has a subject the personal scopes (assigned,
// available, history) can match: a complete reference in the queried tenant, and not the
// system. For any other actor those scopes list nothing.
func PersonalScope(f models.TaskFilter) bool {
	me := f.Actor.Subject
	return me.ID != "" && me.Provider != "" && me.Type != "" && sameTenant(me, f.Tenant) && !f.Actor.System
}

// ScopeEmpty reports whether f's scope lists nothing, whatever the store holds: a personal
// scope (assigned, available, history) for an actor PersonalScope refuses.
func ScopeEmpty(f models.TaskFilter) bool {
	switch f.Scope {
	case models.ScopeAssigned, models.ScopeAvailable, models.ScopeHistory:
		return !PersonalScope(f)
	}
	return false
}

// ActorGroups are the ids, by provider, of f's actor's groups that a live group candidacy can
// match: groups with an id in the queried tenant (cross-tenant references never match).
func ActorGroups(f models.TaskFilter) map[string][]string {
	byProvider := map[string][]string{}
	for _, g := range f.Actor.Groups {
		if !sameTenant(g, f.Tenant) || g.Type != models.GroupParticipant || g.ID == "" {
			continue
		}
		byProvider[g.Provider] = append(byProvider[g.Provider], g.ID)
	}
	return byProvider
}

// sameTenant reports whether a reference of the actor belongs to the queried tenant. A
// reference without a tenant is the principal's own, and the filter's tenant is the
// principal's too.
func sameTenant(p models.ParticipantRef, tenant string) bool {
	return p.Tenant == "" || p.Tenant == tenant
}

// DueWindow is the due-date range [from, to) of the due filter today or thisWeek at now: the
// UTC day, or the ISO week (Monday to Sunday) of the day.
func DueWindow(due models.DueFilter, now time.Time) (from, to time.Time) {
	now = now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if due == models.DueThisWeek {
		monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
		return monday, monday.AddDate(0, 0, 7)
	}
	return day, day.AddDate(0, 0, 1)
}

// ActorStandIns are the ids, by provider, of the absent users f's actor stands in for
// (models.Actor.StandsInFor, SPEC 10.5) whose direct candidacies the available scope lists:
// users of the queried tenant, at most models.MaxStandsInFor, each id sorted.
func ActorStandIns(f models.TaskFilter) map[string][]string {
	byProvider := map[string][]string{}
	n := 0
	for _, u := range f.Actor.StandsInFor {
		if !sameTenant(u, f.Tenant) || u.Type != models.UserParticipant || u.ID == "" || u.Provider == "" || n == models.MaxStandsInFor {
			continue
		}
		byProvider[u.Provider] = append(byProvider[u.Provider], u.ID)
		n++
	}
	for p := range byProvider {
		slices.Sort(byProvider[p])
	}
	return byProvider
}
