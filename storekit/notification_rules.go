package storekit

import (
	"time"

	"usertasks/models"
)

// NotificationsFor derives the notifications a change causes (SPEC 10.3); both stores write
// them in the change's transaction, so a notification exists exactly when its change does.
// before is the task as it was loaded in the transaction, nil for a creation. The rows are
// pending, due at now; the delivery worker expands group rows through the directory and checks
// visibility again before anything is shown or sent.
//
//   - task-available: the task entered Available (created so, released, retried): every
//     candidate user and snapshot member, and every candidate group (to be expanded);
//   - task-assigned: the assignee changed to someone other than the actor (not one's own claim),
//     a delegation included;
//   - returned: a delegate returned the task: to the delegator, its assignee again;
//   - overdue: the task was flagged overdue while open: the assignee, else the candidate users.
//
// Never the actor of the change, an excluded user, or a guest (an invitation's participant).
func NotificationsFor(before *models.Task, c *models.Change, now time.Time) []models.Notification {
	after := &c.Task
	var actor *models.ParticipantRef
	if c.Event != nil {
		actor = c.Event.Actor
	}
	b := notificationBuilder{task: after, actor: actor, now: now, seen: map[string]bool{}}

	if after.Status == models.StatusAvailable && (before == nil || before.Status != models.StatusAvailable) {
		for _, cand := range after.Assignment.Candidates {
			if cand.Source == models.SourceInvitation {
				continue
			}
			b.add(models.TriggerTaskAvailable, cand.Participant)
		}
	}
	if a := after.Assignee; a != nil && (before == nil || before.Assignee == nil || !before.Assignee.Same(*a)) {
		trigger := models.TriggerTaskAssigned
		if c.Event != nil && c.Event.Type == models.EventReturned {
			trigger = models.TriggerReturned // the delegate gave it back (SPEC 10.5)
		}
		if actor == nil || !actor.Same(*a) {
			b.add(trigger, *a)
		}
	}
	if after.IsOverdue && after.Status.IsOpen() && (before == nil || !before.IsOverdue) {
		for _, r := range DeadlineRecipients(after) {
			b.add(models.TriggerOverdue, r)
		}
	}
	return b.out
}

// DeadlineRecipients are who hears about a task's due time (due-soon, overdue): its assignee,
// or without one its candidate users and snapshot members (groups are not expanded for these).
func DeadlineRecipients(t *models.Task) []models.ParticipantRef {
	if t.Assignee != nil {
		return []models.ParticipantRef{*t.Assignee}
	}
	var out []models.ParticipantRef
	for _, cand := range t.Assignment.Candidates {
		if cand.Participant.Type == models.UserParticipant && cand.Source != models.SourceInvitation {
			out = append(out, cand.Participant)
		}
	}
	return out
}

// Notifiable reports whether p may be told about t at all: a user or group of the task's
// tenant, not a guest, not excluded from the task.
func Notifiable(t *models.Task, p models.ParticipantRef) bool {
	if p.Provider == models.GuestProvider || p.ID == "" {
		return false
	}
	if p.Type != models.UserParticipant && p.Type != models.GroupParticipant {
		return false
	}
	if p.Type == models.UserParticipant {
		for _, ex := range t.Assignment.Exclusions {
			if ex.Same(p) {
				return false
			}
		}
	}
	return true
}

// notificationBuilder collects one change's rows, each recipient once per trigger.
type notificationBuilder struct {
	task  *models.Task
	actor *models.ParticipantRef
	now   time.Time
	seen  map[string]bool
	out   []models.Notification
}

func (b *notificationBuilder) add(trigger models.NotificationTrigger, to models.ParticipantRef) {
	b.addKeyed(trigger, to, int64(b.task.Revision))
}

// addKeyed adds a row keyed by revision (the task's, or what stands in for it).
func (b *notificationBuilder) addKeyed(trigger models.NotificationTrigger, to models.ParticipantRef, revision int64) {
	to.Tenant = b.task.Tenant
	if !Notifiable(b.task, to) || (b.actor != nil && b.actor.Same(to)) {
		return
	}
	key := string(trigger) + "\x00" + to.Key()
	if b.seen[key] {
		return
	}
	b.seen[key] = true
	b.out = append(b.out, NewNotification(b.task, trigger, revision, to, b.actor, b.now))
}

// NewNotification is a pending row for recipient about t, due at now.
func NewNotification(t *models.Task, trigger models.NotificationTrigger, revision int64, recipient models.ParticipantRef, actor *models.ParticipantRef, now time.Time) models.Notification {
	recipient.Tenant = t.Tenant
	var who *models.ParticipantRef
	if actor != nil {
		a := *actor
		who = &a
	}
	return models.Notification{
		ID: models.NewID(), Tenant: t.Tenant, Recipient: recipient, TaskID: t.ID, Trigger: trigger,
		Revision: revision, Actor: who, Title: t.Title, State: models.NotificationPending,
		AvailableAt: now, OccurredAt: now, UpdatedAt: now,
	}
}
