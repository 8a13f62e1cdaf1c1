package storekit

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"usertasks/models"
)

func ruleUser(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id, DisplayName: "User " + id}
}

func ruleGroup(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: id}
}

// ruleTask is an Available task of tenant t1 at revision 1: candidate users ann and bob (bob
// excluded), group sales with snapshot member dan, and a guest's invitation candidate.
func ruleTask() models.Task {
	sales := ruleGroup("sales")
	return models.Task{ID: "task-1", Tenant: "t1", Title: "Review", Status: models.StatusAvailable, Revision: 1,
		Assignment: models.Assignment{
			Candidates: []models.Candidate{
				{Participant: ruleUser("ann"), Source: models.SourceDirectUser},
				{Participant: ruleUser("bob"), Source: models.SourceDirectUser},
				{Participant: sales, Source: models.SourceDirectGroup},
				{Participant: ruleUser("dan"), Source: models.SourceSnapshotMember, SourceGroup: &sales},
				{Participant: models.GuestRef("t1", "inv-1"), Source: models.SourceInvitation},
			},
			Exclusions: []models.ParticipantRef{ruleUser("bob")},
		}}
}

// change is the change that turns before into after, by actor (nil: the system).
func change(after models.Task, actor *models.ParticipantRef) *models.Change {
	return &models.Change{Task: after, Event: &models.Event{Actor: actor}}
}

func ruleKeys(ns []models.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprintf("%s %s:%s r%d", n.Trigger, n.Recipient.Type, n.Recipient.ID, n.Revision)
	}
	sort.Strings(out)
	return out
}

func wantRules(t *testing.T, got []models.Notification, want ...string) {
	t.Helper()
	sort.Strings(want)
	if g := ruleKeys(got); !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
		t.Fatalf("rows %q, want %q", g, want)
	}
}

func assignedTo(t models.Task, who models.ParticipantRef) models.Task {
	t.Status = models.StatusAssigned
	t.Assignee = &who
	t.Revision++
	return t
}

func TestNotificationsFor(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

	t.Run("CreatedAvailable", func(t *testing.T) {
		task := ruleTask()
		got := NotificationsFor(nil, change(task, nil), now)
		wantRules(t, got, "task-available user:ann r1", "task-available group:sales r1", "task-available user:dan r1")
		ids := map[string]bool{}
		for _, n := range got {
			if n.Tenant != "t1" || n.Recipient.Tenant != "t1" || n.TaskID != "task-1" || n.Title != "Review" || n.Actor != nil ||
				n.State != models.NotificationPending || !n.AvailableAt.Equal(now) || !n.OccurredAt.Equal(now) || !n.UpdatedAt.Equal(now) ||
				n.Email != models.ChannelUndecided || n.Webhook != models.ChannelUndecided || n.Attempts != 0 || n.VisibleAt != nil {
				t.Fatalf("row %+v", n)
			}
			if n.ID == "" || ids[n.ID] {
				t.Fatalf("row id %q empty or repeated", n.ID)
			}
			ids[n.ID] = true
		}
	})
	t.Run("CreatedAssigned", func(t *testing.T) {
		task := ruleTask()
		task.Status, task.Assignee = models.StatusAssigned, ptrTo(ruleUser("cy"))
		wantRules(t, NotificationsFor(nil, change(task, nil), now), "task-assigned user:cy r1")
	})
	t.Run("CreatedUnassignedNone", func(t *testing.T) {
		task := models.Task{ID: "task-1", Tenant: "t1", Status: models.StatusUnassigned, Revision: 1}
		wantRules(t, NotificationsFor(nil, change(task, nil), now))
	})
	t.Run("StillAvailableNone", func(t *testing.T) {
		before := ruleTask()
		after := before
		after.Revision, after.Priority = 2, 90
		wantRules(t, NotificationsFor(&before, change(after, nil), now))
	})
	t.Run("OwnClaimNone", func(t *testing.T) {
		before := ruleTask()
		ann := ruleUser("ann")
		wantRules(t, NotificationsFor(&before, change(assignedTo(before, ann), &ann), now))
	})
	t.Run("AssignedByAnother", func(t *testing.T) {
		before := ruleTask()
		boss := ruleUser("boss")
		got := NotificationsFor(&before, change(assignedTo(before, ruleUser("cy")), &boss), now)
		wantRules(t, got, "task-assigned user:cy r2")
		if a := got[0].Actor; a == nil || !a.Same(boss) || a.DisplayName != "User boss" {
			t.Fatalf("actor %+v, want boss", a)
		}
		boss.ID = "changed"
		if got[0].Actor.ID != "boss" {
			t.Fatal("the row's actor aliases the change's")
		}
	})
	t.Run("ReassignedToTheNewAssigneeOnly", func(t *testing.T) {
		before := assignedTo(ruleTask(), ruleUser("ann"))
		boss := ruleUser("boss")
		wantRules(t, NotificationsFor(&before, change(assignedTo(before, ruleUser("cy")), &boss), now), "task-assigned user:cy r3")
	})
	t.Run("SameAssigneeNone", func(t *testing.T) {
		before := assignedTo(ruleTask(), ruleUser("ann"))
		after := before
		after.Revision++
		after.Assignee = ptrTo(ruleUser("ann"))
		after.Assignee.DisplayName = "Ann, renamed"
		boss := ruleUser("boss")
		wantRules(t, NotificationsFor(&before, change(after, &boss), now))
	})
	t.Run("NeverAGuestOrAnExcludedAssignee", func(t *testing.T) {
		before := ruleTask()
		guest := models.GuestRef("t1", "inv-1")
		wantRules(t, NotificationsFor(&before, change(assignedTo(before, guest), &guest), now))
		boss := ruleUser("boss")
		wantRules(t, NotificationsFor(&before, change(assignedTo(before, ruleUser("bob")), &boss), now))
	})
	t.Run("ReleasedAvailableAgainNotToTheActor", func(t *testing.T) {
		before := assignedTo(ruleTask(), ruleUser("ann"))
		after := before
		after.Status, after.Assignee, after.Revision = models.StatusAvailable, nil, before.Revision+1
		ann := ruleUser("ann")
		wantRules(t, NotificationsFor(&before, change(after, &ann), now), "task-available group:sales r3", "task-available user:dan r3")
	})
	t.Run("ActorOfAnotherProviderIsNotTheRecipient", func(t *testing.T) {
		// Only the very same participant is spared: ann of another provider is not ann.
		before := assignedTo(ruleTask(), ruleUser("cy"))
		after := before
		after.Status, after.Assignee, after.Revision = models.StatusAvailable, nil, before.Revision+1
		stranger := ruleUser("ann")
		stranger.Provider = "corp"
		wantRules(t, NotificationsFor(&before, change(after, &stranger), now),
			"task-available user:ann r3", "task-available group:sales r3", "task-available user:dan r3")
	})
	t.Run("OneRowPerRecipientAndTrigger", func(t *testing.T) {
		task := ruleTask()
		sales := ruleGroup("sales")
		task.Assignment.Candidates = append(task.Assignment.Candidates,
			models.Candidate{Participant: ruleUser("ann"), Source: models.SourceSnapshotMember, SourceGroup: &sales})
		wantRules(t, NotificationsFor(nil, change(task, nil), now),
			"task-available user:ann r1", "task-available group:sales r1", "task-available user:dan r1")
	})
	t.Run("RecipientTakesTheTasksTenant", func(t *testing.T) {
		task := ruleTask()
		task.Assignment.Candidates[0].Participant.Tenant = "t2"
		for _, n := range NotificationsFor(nil, change(task, nil), now) {
			if n.Recipient.Tenant != "t1" {
				t.Fatalf("a row for %s of tenant %q on a task of t1", n.Recipient.ID, n.Recipient.Tenant)
			}
		}
	})
	t.Run("OverdueToCandidateUsersWithoutAnAssignee", func(t *testing.T) {
		before := ruleTask()
		after := before
		after.IsOverdue, after.Revision = true, 2
		wantRules(t, NotificationsFor(&before, change(after, nil), now), "overdue user:ann r2", "overdue user:dan r2")
	})
	t.Run("OverdueToTheAssignee", func(t *testing.T) {
		before := assignedTo(ruleTask(), ruleUser("cy"))
		after := before
		after.IsOverdue, after.Revision = true, before.Revision+1
		wantRules(t, NotificationsFor(&before, change(after, nil), now), "overdue user:cy r3")
	})
	t.Run("OverdueOnce", func(t *testing.T) {
		before := assignedTo(ruleTask(), ruleUser("cy"))
		before.IsOverdue = true
		after := before
		after.Revision++
		wantRules(t, NotificationsFor(&before, change(after, nil), now))
	})
	t.Run("CreatedOverdue", func(t *testing.T) {
		task := assignedTo(ruleTask(), ruleUser("cy"))
		task.Revision, task.IsOverdue = 1, true
		wantRules(t, NotificationsFor(nil, change(task, nil), now), "task-assigned user:cy r1", "overdue user:cy r1")
	})
	t.Run("TerminalNone", func(t *testing.T) {
		for _, status := range []models.Status{models.StatusCompleting, models.StatusCompleted, models.StatusCancelled, models.StatusTimedOut} {
			before := assignedTo(ruleTask(), ruleUser("cy"))
			after := before
			after.Status, after.Revision, after.IsOverdue = status, before.Revision+1, true
			wantRules(t, NotificationsFor(&before, change(after, nil), now))
		}
	})
	t.Run("NoEventIsTheSystem", func(t *testing.T) {
		got := NotificationsFor(nil, &models.Change{Task: ruleTask()}, now)
		wantRules(t, got, "task-available user:ann r1", "task-available group:sales r1", "task-available user:dan r1")
	})
}

func TestDeadlineRecipients(t *testing.T) {
	names := func(rs []models.ParticipantRef) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, string(r.Type)+":"+r.ID)
		}
		sort.Strings(out)
		return out
	}
	task := ruleTask()
	// bob is excluded but still a candidate row: NotificationsFor drops him (Notifiable).
	if got := names(DeadlineRecipients(&task)); !slices.Equal(got, []string{"user:ann", "user:bob", "user:dan"}) {
		t.Fatalf("without an assignee %q", got)
	}
	held := assignedTo(task, ruleUser("cy"))
	if got := names(DeadlineRecipients(&held)); !slices.Equal(got, []string{"user:cy"}) {
		t.Fatalf("with an assignee %q", got)
	}
	empty := models.Task{Tenant: "t1"}
	if got := DeadlineRecipients(&empty); len(got) != 0 {
		t.Fatalf("no participants: %q", names(got))
	}
}

func TestNotifiable(t *testing.T) {
	task := ruleTask()
	bobGroup := ruleGroup("bob")
	for _, c := range []struct {
		name string
		p    models.ParticipantRef
		want bool
	}{
		{"User", ruleUser("ann"), true},
		{"Group", ruleGroup("sales"), true},
		{"GroupNamedLikeAnExcludedUser", bobGroup, true},
		{"Excluded", ruleUser("bob"), false},
		{"Guest", models.GuestRef("t1", "inv-1"), false},
		{"GuestProviderAnyID", models.ParticipantRef{Tenant: "t1", Provider: models.GuestProvider, Type: models.UserParticipant, ID: "ann"}, false},
		{"EmptyID", ruleUser(""), false},
		{"UnknownType", models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: "robot", ID: "r2"}, false},
	} {
		if got := Notifiable(&task, c.p); got != c.want {
			t.Errorf("%s: Notifiable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNewNotification(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	task := ruleTask()
	other := ruleUser("ann")
	other.Tenant = "t2"
	actor := ruleUser("boss")
	n := NewNotification(&task, models.TriggerDueSoon, 1767225600, other, &actor, now)
	if n.Tenant != "t1" || n.Recipient.Tenant != "t1" || n.Revision != 1767225600 || n.Trigger != models.TriggerDueSoon ||
		n.State != models.NotificationPending || n.Actor == &actor || n.Actor == nil || !n.Actor.Same(actor) || n.ID == "" {
		t.Fatalf("row %+v", n)
	}
	if m := NewNotification(&task, models.TriggerDueSoon, 1, ruleUser("ann"), nil, now); m.ID == n.ID || m.Actor != nil {
		t.Fatalf("a second row %+v", m)
	}
}

func ptrTo[T any](v T) *T { return &v }
