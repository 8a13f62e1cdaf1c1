package i18n

import (
	"strings"
	"testing"

	"usertasks/models"
)

// TestDeadlinesTextComplete walks the nested Deadlines text, which the catalogue test does not.
func TestDeadlinesTextComplete(t *testing.T) {
	nestedTextComplete(t, "Deadlines", func(c *Catalog) any { return c.Deadlines })
	for _, c := range Supported {
		d := c.Deadlines
		for _, f := range []string{d.DashHead, d.DashNone} {
			if strings.Count(f, "%d") != 1 {
				t.Errorf("%s: %q needs one %%d", c.Lang, f)
			}
		}
		for _, f := range d.NotifyNamed {
			if strings.Count(f, "%d") != 1 {
				t.Errorf("%s: NotifyNamed %q needs one %%d", c.Lang, f)
			}
		}
		for _, k := range []models.DeadlineKind{models.DeadlineStart, models.DeadlineCompletion} {
			if d.KindWords[k] == "" || c.DeadlineKindHelp(k) == "" {
				t.Errorf("%s: kind %s is not said", c.Lang, k)
			}
		}
		for _, a := range []models.DeadlineActionType{models.DeadlineNotify, models.DeadlineReassign, models.DeadlineSetPriority, models.DeadlineFlag} {
			if d.ActionWords[a] == "" {
				t.Errorf("%s: action %s is not said", c.Lang, a)
			}
		}
	}
}

// TestDeadlineActionWords: every action in words, counting participants and naming none.
func TestDeadlineActionWords(t *testing.T) {
	p := 80
	alice := models.ParticipantRef{Type: models.UserParticipant, ID: "alice@example.com"}
	ops := models.ParticipantRef{Type: models.GroupParticipant, ID: "ops/eu?x#1"}
	for _, c := range []struct {
		kind models.DeadlineKind
		a    models.DeadlineAction
		want string
	}{
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyManagers}}, "Notify the managers"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyCandidates}}, "Notify the candidates"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyAssignee}}, "Notify the assignee"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{alice}}}, "Notify 1 named participant"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{alice, ops}}}, "Notify 2 named participants"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineReassign, CandidateUsers: []models.ParticipantRef{alice}, CandidateGroups: []models.ParticipantRef{ops, ops}}, "Reassign to 1 person, 2 groups"},
		{models.DeadlineCompletion, models.DeadlineAction{Type: models.DeadlineReassign, CandidateGroups: []models.ParticipantRef{ops}}, "Release the assignee and reassign to 1 group"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineReassign}, "Remove the candidates"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineSetPriority, Priority: &p}, "Set the priority to 80"},
		{models.DeadlineStart, models.DeadlineAction{Type: models.DeadlineFlag}, "Flag the task as “Deadline missed”"},
		{models.DeadlineStart, models.DeadlineAction{Type: "teleport"}, "teleport"},
	} {
		got := english.DeadlineAction(c.kind, c.a)
		if got != c.want {
			t.Errorf("%s %+v: got %q, want %q", c.kind, c.a, got, c.want)
		}
		if strings.Contains(got, "alice") || strings.Contains(got, "ops/") {
			t.Errorf("%q names a participant", got)
		}
	}
	if got, want := german.DeadlineAction(models.DeadlineCompletion, models.DeadlineAction{Type: models.DeadlineReassign, CandidateUsers: []models.ParticipantRef{alice}}), "Den Bearbeiter entbinden und neu zuweisen an 1 Person"; got != want {
		t.Errorf("German: got %q, want %q", got, want)
	}
}

// TestDeadlineFiredLine: the History line numbers from 1 and says the actions in each language.
func TestDeadlineFiredLine(t *testing.T) {
	got := english.DeadlineFired(0, models.DeadlineStart, []string{"notify", "reassign", "set-priority", "flag"})
	if want := "Deadline 1 (start) passed: notified, reassigned, priority changed, flagged"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = german.DeadlineFired(4, models.DeadlineCompletion, []string{"notify"})
	if want := "Frist 5 (Erledigung) verstrichen: benachrichtigt"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A kind or action of a newer version is shown as recorded rather than dropped.
	if got := english.DeadlineFired(1, "review", []string{"escalate"}); got != "Deadline 2 (review) passed: escalate" {
		t.Errorf("unknown codes: %q", got)
	}
	if english.DeadlineKind(models.DeadlineStart) != "Start deadline" || german.DeadlineKind(models.DeadlineCompletion) != "Erledigungsfrist" {
		t.Error("kind names")
	}
}
