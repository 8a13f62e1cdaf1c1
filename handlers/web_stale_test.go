package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/tasks"
)

// TestStaleFormSaysWhatHappened: a form posted after the task moved on says what happened —
// who completed or cancelled it and when, in the reader's time zone — and promises kept input
// only when the page shows the form with that input.
func TestStaleFormSaysWhatHappened(t *testing.T) {
	t.Run("CompletedInAnotherTab", func(t *testing.T) {
		f := newWebFixture(t)
		b := f.signIn(t, "ann")
		task, first := claimed(t, f, b, webTaskOpts{})
		b.postTimeZone("Europe/Berlin", first.csrf()).wantStatus(http.StatusNoContent)
		second := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		values := url.Values{"decision": {"approve"}, "amount": {"10"}}
		if res := b.submit(second, "task-form", values, second.one("action-approve")); res.status != http.StatusSeeOther {
			t.Fatalf("complete in the second tab: %d", res.status)
		}
		stale := b.follow(b.submit(first, "task-form", values, first.one("action-reject"))).wantStatus(http.StatusOK)
		banner := stale.text("banner-conflict")
		if strings.Contains(banner, "kept below") || stale.has("task-form") {
			t.Fatalf("the banner promises input the page does not show: %q", banner)
		}
		if stale.has("reload") {
			t.Fatal("the banner offers to reload a page that already shows the closed task")
		}
		webWantContains(t, "banner", banner, "completed by you")
		at := *f.current(t, task.ID).TransitionedAt
		berlin, _ := time.LoadLocation("Europe/Berlin")
		webWantContains(t, "banner", banner, at.In(berlin).Format("15:04"))
		webWantContains(t, "banner", banner, "CET")
	})

	t.Run("CancelledByAManager", func(t *testing.T) {
		f := newWebFixture(t)
		b := f.signIn(t, "ann")
		task, p := claimed(t, f, b, webTaskOpts{})
		boss := f.signIn(t, "boss")
		bp := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		boss.follow(boss.submit(bp, "manage-cancel", url.Values{"reason": {"duplicate"}}, nil))
		res := b.follow(refusedComplete(t, b, p, task.ID, url.Values{"comment": {"my notes"}}))
		banner := res.text("banner-conflict")
		webWantContains(t, "banner", banner, "cancelled by Bea Boss")
		webWantContains(t, "banner", banner, "UTC")
		if strings.Contains(banner, "kept below") {
			t.Fatalf("banner %q", banner)
		}
	})

	t.Run("ManagerFormOnAChangedTask", func(t *testing.T) {
		f := newWebFixture(t)
		task := f.seed(t, webTaskOpts{})
		boss := f.signIn(t, "boss")
		p := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		prio := 99
		if _, err := f.svc.UpdateSchedule(context.Background(), bossActor(), task.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: 1}, Priority: &prio}); err != nil {
			t.Fatal(err)
		}
		res := boss.submit(p, "manage-schedule", url.Values{"priority": {"10"}}, nil).wantStatus(http.StatusConflict)
		banner := res.text("banner-conflict")
		webWantContains(t, "banner", banner, "changed since you opened it")
		if strings.Contains(banner, "kept below") {
			t.Fatalf("the manager's form is shown fresh, yet the banner says the input is kept: %q", banner)
		}
		if f.current(t, task.ID).Status != models.StatusAvailable {
			t.Fatal("status changed")
		}
	})

	t.Run("German", func(t *testing.T) {
		f := newWebFixture(t)
		b := f.signIn(t, "ann")
		b.lang = "de"
		task, first := claimed(t, f, b, webTaskOpts{})
		second := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		values := url.Values{"decision": {"approve"}, "amount": {"10"}}
		b.submit(second, "task-form", values, second.one("action-approve"))
		stale := b.follow(b.submit(first, "task-form", values, first.one("action-reject"))).wantStatus(http.StatusOK)
		webWantContains(t, "banner", stale.text("banner-conflict"), "von Ihnen")
	})
}
