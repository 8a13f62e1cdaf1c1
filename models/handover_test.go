package models

import "testing"

// TestHandoverOffers: the pages offer delegate and return exactly to whom the commands admit.
func TestHandoverOffers(t *testing.T) {
	can := func(a Actor, perms ...string) Actor {
		a.Permissions = perms
		return a
	}
	alice := can(person("alice"), PermClaim)
	bob := can(person("bob"), PermClaim)
	boss := can(manager("boss"), PermAssign)
	assigned := newTask(t, &taskOpts{status: StatusAssigned})
	byAlice := delegated(t) // alice delegated it to bob

	for _, c := range []struct {
		name     string
		task     Task
		actor    Actor
		delegate bool
		ret      bool
	}{
		{"TheAssignee", assigned, alice, true, false},
		{"AManager", assigned, boss, true, false},
		{"TheAssigneeWithoutPermission", assigned, can(person("alice"), PermView), false, false},
		{"AnotherPerson", assigned, bob, false, false},
		{"TheDelegate", byAlice, bob, true, true},
		{"TheDelegator", byAlice, alice, false, false},
		{"AManagerOfADelegatedTask", byAlice, boss, true, false},
		{"AvailableTask", newTask(t, nil), alice, false, false},
		{"CompletedTask", newTask(t, &taskOpts{status: StatusCompleted}), alice, false, false},
		{"HiddenByHealth", withHealth(assigned, HealthFormProviderMissing), alice, false, false},
		{"HiddenByHealthButAManager", withHealth(assigned, HealthFormProviderMissing), boss, true, false},
		{"AnotherTenant", assigned, func() Actor { a := alice; a.Tenant = "other"; return a }(), false, false},
		{"AGuest", assigned, can(guest(assigned, "inv-1", "Approve"), PermClaim), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := MayDelegate(c.task, c.actor); got != c.delegate {
				t.Errorf("MayDelegate = %v, want %v", got, c.delegate)
			}
			if got := MayReturn(c.task, c.actor); got != c.ret {
				t.Errorf("MayReturn = %v, want %v", got, c.ret)
			}
		})
	}
}
