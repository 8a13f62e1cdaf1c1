package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"usertasks/models"
)

// deadlineItems are the task page's deadlines: "number|state" each.
func deadlineItems(p *webPage) []string {
	var out []string
	for _, n := range p.all("deadline") {
		out = append(out, webAttr(n, "data-deadline-number")+"|"+webAttr(n, "data-deadline-state"))
	}
	return out
}

// dueText is the n-th deadline's due time as shown (relative and absolute).
func dueText(p *webPage, n int) string {
	due := p.all("deadline-due")
	if n >= len(due) {
		return ""
	}
	return webText(due[n])
}

func TestTaskPageDeadlines(t *testing.T) {
	f := newWebFixture(t)
	boss := f.signIn(t, "boss")
	p90 := 90
	hostile := models.ParticipantRef{Type: models.UserParticipant, ID: "mallory/x?y#z ü"}
	task := f.seed(t, webTaskOpts{mutate: func(p *models.Projection) {
		p.Deadlines = []models.DeadlineDefinition{
			{Kind: models.DeadlineStart, At: "2020-01-01T08:00:00Z", Actions: []models.DeadlineAction{
				{Type: models.DeadlineReassign, CandidateGroups: []models.ParticipantRef{{Type: models.GroupParticipant, ID: "leads"}}},
				{Type: models.DeadlineSetPriority, Priority: &p90},
				{Type: models.DeadlineNotify, To: &models.NotifyTarget{Audience: models.NotifyManagers}},
			}},
			{Kind: models.DeadlineCompletion, At: "2031-06-15T12:00:00Z", Actions: []models.DeadlineAction{
				{Type: models.DeadlineNotify, To: &models.NotifyTarget{Participants: []models.ParticipantRef{hostile}}},
				{Type: models.DeadlineFlag},
			}},
		}
	}})

	t.Run("OKPending", func(t *testing.T) {
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if got, want := deadlineItems(p), []string{"1|pending", "2|pending"}; !slices.Equal(got, want) {
			t.Fatalf("deadlines = %v, want %v", got, want)
		}
		webWantContains(t, "block", p.text("deadlines"), "Start deadline 1")
		webWantContains(t, "block", p.text("deadlines"), "Applies if nobody has taken the task by then.")
		webWantContains(t, "due", dueText(p, 1), "15 Jun 2031")
		webWantContains(t, "due", dueText(p, 1), "12:00")
		acts := p.all("deadline-actions")
		if len(acts) != 2 {
			t.Fatalf("%d action lists, want 2", len(acts))
		}
		for _, want := range []string{"Reassign to 1 group", "Set the priority to 90", "Notify the managers"} {
			webWantContains(t, "first deadline's actions", webText(acts[0]), want)
		}
		for _, want := range []string{"Notify 1 named participant", "Flag the task as “Deadline missed”"} {
			webWantContains(t, "second deadline's actions", webText(acts[1]), want)
		}
		if strings.Contains(p.text("deadlines"), "mallory") || strings.Contains(p.text("deadlines"), "leads") {
			t.Error("the block names a participant of an action")
		}
	})

	t.Run("OKViewerTimeZone", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.postTimeZone("Asia/Kolkata", b.get("/inbox").csrf()).wantStatus(http.StatusNoContent)
		p := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		// 12:00 UTC is 17:30 in India (UTC+05:30, no daylight saving).
		webWantContains(t, "due in the viewer's zone", dueText(p, 1), "17:30")
	})

	if _, err := f.store.FireDeadline(context.Background(), "t1", task.ID, 0, []models.ParticipantRef{{Tenant: "t1", Type: models.UserParticipant, ID: "boss"}}); err != nil {
		t.Fatalf("fire: %v", err)
	}

	t.Run("OKFired", func(t *testing.T) {
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if got, want := deadlineItems(p), []string{"1|fired", "2|pending"}; !slices.Equal(got, want) {
			t.Fatalf("deadlines = %v, want %v", got, want)
		}
		states := p.all("deadline-state")
		webWantContains(t, "state", webText(states[0]), "Fired")
		if !hasTime(states[0]) {
			t.Error("the fired deadline shows no time of firing")
		}
		webWantContains(t, "state", webText(states[1]), "Pending")
	})

	t.Run("OKHistory", func(t *testing.T) {
		var lines []string
		for _, n := range boss.get("/tasks/" + task.ID + "?tab=history").all("event-summary") {
			lines = append(lines, webText(n))
		}
		if want := "Deadline 1 (start) passed: reassigned, priority changed, notified"; !slices.Contains(lines, want) {
			t.Errorf("history = %v, want %q", lines, want)
		}
	})

	t.Run("OKGerman", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		p := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		webWantContains(t, "block", p.text("deadlines"), "Übernahmefrist 1")
		webWantContains(t, "block", p.text("deadlines"), "Ausgelöst")
		webWantContains(t, "block", p.text("deadlines"), "Neu zuweisen an 1 Gruppe")
		var lines []string
		for _, n := range b.get("/tasks/" + task.ID + "?tab=history").all("event-summary") {
			lines = append(lines, webText(n))
		}
		if want := "Frist 1 (Übernahme) verstrichen: neu zugewiesen, Priorität geändert, benachrichtigt"; !slices.Contains(lines, want) {
			t.Errorf("history = %v, want %q", lines, want)
		}
	})

	t.Run("OKNone", func(t *testing.T) {
		plain := f.seed(t, webTaskOpts{})
		if p := boss.get("/tasks/" + plain.ID).wantStatus(http.StatusOK); p.has("deadlines") {
			t.Error("a task without deadlines shows the block")
		}
	})
}

// hasTime: n holds a <time> element.
func hasTime(n *html.Node) bool {
	found := false
	webWalk(n, func(in *html.Node) {
		if in.Type == html.ElementNode && in.Data == "time" {
			found = true
		}
	})
	return found
}
