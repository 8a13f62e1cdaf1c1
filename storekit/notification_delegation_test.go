package storekit

import (
	"testing"
	"time"

	"usertasks/models"
)

// TestNotificationsForDelegation: a delegation tells the delegate task-assigned, a return tells
// the delegator returned (never task-assigned), and neither tells the actor.
func TestNotificationsForDelegation(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	ann, cy := ruleUser("ann"), ruleUser("cy")
	held := assignedTo(ruleTask(), ann)

	delegated := assignedTo(held, cy)
	delegated.DelegatedBy = &ann
	wantRules(t, NotificationsFor(&held, &models.Change{Task: delegated, Event: &models.Event{Type: models.EventDelegated, Actor: &ann}}, now),
		"task-assigned user:cy r3")

	returned := assignedTo(delegated, ann)
	returned.DelegatedBy = nil
	wantRules(t, NotificationsFor(&delegated, &models.Change{Task: returned, Event: &models.Event{Type: models.EventReturned, Actor: &cy}}, now),
		"returned user:ann r4")

	// Any other assignment back to the delegator stays task-assigned.
	wantRules(t, NotificationsFor(&delegated, &models.Change{Task: returned, Event: &models.Event{Type: models.EventAssigned, Actor: &cy}}, now),
		"task-assigned user:ann r4")
}
