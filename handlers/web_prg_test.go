package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// TestWebPostRedirectGet: every form action that succeeds answers 303 to a GET page, and
// loading that page again (a refresh) changes nothing — no second event, no new revision.
func TestWebPostRedirectGet(t *testing.T) {
	f := newWebFixture(t)
	ann := f.signIn(t, "ann")
	boss := f.signIn(t, "boss")

	// post submits a form of the page and returns the redirect's target after checking that
	// the target renders and that refreshing it writes nothing.
	post := func(t *testing.T, b *webBrowser, id string, p *webPage, form string, set url.Values, button *html.Node) *webPage {
		t.Helper()
		res := b.submit(p, form, set, button)
		if res.status != http.StatusSeeOther {
			t.Fatalf("%s answered %d, want 303; body %.300s", form, res.status, res.body)
		}
		if res.location == "" || strings.Contains(res.location, "://") {
			t.Fatalf("%s redirects to %q, want a local page", form, res.location)
		}
		page := b.follow(res).wantStatus(http.StatusOK)
		before, events := f.current(t, id).Revision, len(f.events(t, id))
		b.get(res.location).wantStatus(http.StatusOK)
		if after := f.current(t, id).Revision; after != before {
			t.Fatalf("refreshing %s moved the revision %d → %d", res.location, before, after)
		}
		if after := len(f.events(t, id)); after != events {
			t.Fatalf("refreshing %s wrote %d events", res.location, after-events)
		}
		return page
	}

	t.Run("ClaimRevealReleaseClaimComplete", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		p := ann.get("/tasks/" + task.ID)
		p = post(t, ann, task.ID, p, "task-claim-form", nil, nil)
		p = post(t, ann, task.ID, p, "task-form", nil, p.one("reveal-iban"))
		p = post(t, ann, task.ID, p, "task-release-form", nil, nil)
		p = post(t, ann, task.ID, p, "task-claim-form", nil, nil)
		p = post(t, ann, task.ID, p, "task-form", url.Values{"amount": {"10"}}, p.one("action-approve"))
		p.one("banner-accepted")
	})
	t.Run("ManagerCommands", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		p := boss.get("/tasks/" + task.ID)
		p = post(t, boss, task.ID, p, "manage-schedule", url.Values{"priority": {"90"}, "due": {time.Now().Add(48 * time.Hour).UTC().Format("2006-01-02T15:04")}}, nil)
		p = post(t, boss, task.ID, p, "manage-assign", url.Values{"assignee": {"bob"}}, nil)
		p = post(t, boss, task.ID, p, "manage-retry", nil, nil)
		post(t, boss, task.ID, p, "manage-cancel", url.Values{"reason": {"duplicate"}}, nil)
	})
}
