package storekit

import (
	"testing"
	"time"

	"usertasks/models"
)

// TestDueWindow: today is the UTC day of now, thisWeek its ISO week, Monday to Sunday, also when
// now falls on a Sunday or, in UTC, on another day than in its own zone.
func TestDueWindow(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	sunday := time.Date(2026, 3, 8, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		due      models.DueFilter
		now      time.Time
		from, to time.Time
	}{
		{"Today", models.DueToday, sunday, day(8), day(9)},
		{"TodayInUTC", models.DueToday, time.Date(2026, 3, 9, 0, 30, 0, 0, time.FixedZone("CET", 3600)), day(8), day(9)},
		{"WeekOfSunday", models.DueThisWeek, sunday, day(2), day(9)},
		{"WeekOfMonday", models.DueThisWeek, day(9), day(9), day(16)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if from, to := DueWindow(c.due, c.now); !from.Equal(c.from) || !to.Equal(c.to) {
				t.Fatalf("window [%v, %v), want [%v, %v)", from, to, c.from, c.to)
			}
		})
	}
}

// TestPersonalScope: only a complete subject of the queried tenant, not the system, has
// personal lists; its groups of other tenants never match.
func TestPersonalScope(t *testing.T) {
	me := models.ParticipantRef{Provider: "idp", Type: models.UserParticipant, ID: "me"}
	f := models.TaskFilter{Tenant: "t1", Actor: models.Actor{Subject: me, Groups: []models.ParticipantRef{
		{Provider: "idp", Type: models.GroupParticipant, ID: "ops"},
		{Tenant: "t2", Provider: "idp", Type: models.GroupParticipant, ID: "other"},
		{Provider: "idp", Type: models.UserParticipant, ID: "not-a-group"},
	}}}
	if !PersonalScope(f) {
		t.Fatal("a complete subject has no personal scope")
	}
	if got := ActorGroups(f); len(got) != 1 || len(got["idp"]) != 1 || got["idp"][0] != "ops" {
		t.Fatalf("groups %v, want ops only", got)
	}
	other, system := f, f
	other.Actor.Subject.Tenant = "t2"
	system.Actor.System = true
	if PersonalScope(other) || PersonalScope(system) {
		t.Fatal("another tenant's subject or the system has a personal scope")
	}
}

// TestScopeEmpty: the personal scopes list nothing for an actor without a personal subject; the
// other scopes list the tenant's tasks whoever asks.
func TestScopeEmpty(t *testing.T) {
	me := models.Actor{Subject: models.ParticipantRef{Provider: "idp", Type: models.UserParticipant, ID: "me"}}
	system := models.Actor{System: true}
	for _, c := range []struct {
		scope models.Scope
		actor models.Actor
		want  bool
	}{
		{models.ScopeAssigned, me, false},
		{models.ScopeAvailable, system, true},
		{models.ScopeHistory, models.Actor{}, true},
		{models.ScopeAll, system, false},
		{models.ScopeNeedsAttention, models.Actor{}, false},
	} {
		if got := ScopeEmpty(models.TaskFilter{Tenant: "t1", Scope: c.scope, Actor: c.actor}); got != c.want {
			t.Errorf("scope %s, actor %+v: empty %v, want %v", c.scope, c.actor, got, c.want)
		}
	}
}
