package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/websession"
)

// refusedComplete submits the task form and checks that a refused completion answers like a
// successful one: 303 to the task page (Post/Redirect/Get), never a page in the POST's answer.
func refusedComplete(t *testing.T, b *webBrowser, p *webPage, taskID string, set url.Values) *webPage {
	t.Helper()
	res := b.submit(p, "task-form", set, p.one("action-approve"))
	if res.status != http.StatusSeeOther || res.location != "/tasks/"+taskID {
		t.Fatalf("refused completion answered %d → %q, want 303 to the task page; body %.300s", res.status, res.location, res.body)
	}
	return res
}

// keptNote reads, as the store holds it, the note the browser's flash points at.
func (f *webFixture) keptNote(t *testing.T, b *webBrowser) string {
	t.Helper()
	u, _ := url.Parse(f.srv.URL)
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL, nil)
	for _, ck := range b.client.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	s, err := f.sessions.Read(req)
	if err != nil {
		t.Fatal(err)
	}
	var flash struct {
		Note string `json:"n"`
	}
	if !f.sessions.Open(req, websession.FlashCookie, &flash) || flash.Note == "" {
		t.Fatal("no flash points at a note")
	}
	var raw json.RawMessage
	if err := f.sessions.Kept(context.Background(), s, flash.Note, &raw); err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestTaskPageCompleteRefusedRedirects: a refused completion keeps the values and messages on
// the server and shows them once on the task page it redirects to; Reload then shows the task
// as it is, a GET of the form's address goes to the task, and a submission that arrives after
// the task was completed says who completed it — not that the form has errors.
func TestTaskPageCompleteRefusedRedirects(t *testing.T) {
	f := newWebFixture(t)
	b := f.signIn(t, "ann")

	t.Run("ErrFormInvalid", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{})
		res := refusedComplete(t, b, p, task.ID, url.Values{"amount": {"abc"}, "comment": {"typed by hand"}, "decision": nil,
			"iban": {"GB33BUKB20201555555555"}, "smuggled": {"not a field"}})
		if note := f.keptNote(t, b); strings.Contains(note, "GB33BUKB") || strings.Contains(note, "smuggled") {
			t.Fatalf("the note keeps a masked value in clear or a foreign field: %s", note)
		}
		page := b.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "form error", page.text("form-error"), "The form has errors")
		if got := page.text("error-amount"); got != "Amount must be a number." {
			t.Fatalf("amount message %q", got)
		}
		webWantContains(t, "decision message", page.text("error-decision"), "required")
		if got := webAttr(fieldInput(t, page, "amount"), "value"); got != "abc" {
			t.Fatalf("amount kept as %q", got)
		}
		if got := webText(fieldInput(t, page, "comment")); got != "typed by hand" {
			t.Fatalf("comment kept as %q", got)
		}
		if got := webAttr(fieldInput(t, page, "iban"), "value"); got != "GB33BUKB20201555555555" {
			t.Fatalf("the typed masked value came back as %q", got)
		}
		if got := webFormValues(page.one("task-form")).Get("expectedRevision"); got != "2" {
			t.Fatalf("revision %q", got)
		}
		if page.has("banner-conflict") {
			t.Fatal("a refused form shows a conflict")
		}
		// Reload: the messages were shown once; the page is the task as it is.
		again := b.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		if again.has("form-error") || again.has("error-amount") || strings.Contains(again.body, "typed by hand") {
			t.Fatal("a reload shows the refused submission again")
		}
		if f.current(t, task.ID).Status != models.StatusAssigned {
			t.Fatal("a refused form changed the task")
		}
	})
	t.Run("GetOfTheFormAddress", func(t *testing.T) {
		task := f.seed(t, webTaskOpts{})
		res := b.get("/tasks/" + task.ID + "/complete")
		if res.status != http.StatusSeeOther || res.location != "/tasks/"+task.ID {
			t.Fatalf("GET of the form's address: %d → %q, want 303 to the task", res.status, res.location)
		}
		b.follow(res).wantStatus(http.StatusOK)
		if res := f.browser(t).get("/tasks/" + task.ID + "/complete"); res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, "/login") {
			t.Fatalf("signed out: %d → %q, want the sign-in", res.status, res.location)
		}
		// A task the caller may not see, or a made-up id, is the task page's 404.
		b.get("/tasks/%2F%2Fevil.example%5C/complete").wantStatus(http.StatusNotFound)
		f.signIn(t, "otto").get("/tasks/" + task.ID + "/complete").wantStatus(http.StatusNotFound)
	})
	t.Run("ErrRevisionConflict", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{})
		res := refusedComplete(t, b, p, task.ID, url.Values{"comment": {"my notes"}, "expectedRevision": {"1"}})
		page := b.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "banner", page.text("banner-conflict"), "changed since you opened it")
		if got := webText(fieldInput(t, page, "comment")); got != "my notes" {
			t.Fatalf("input in progress lost: %q", got)
		}
	})
	t.Run("CompletedMeanwhile", func(t *testing.T) {
		task, p := claimed(t, f, b, webTaskOpts{})
		// The same person completes the task in another tab; this tab still has the form.
		other := b.get("/tasks/" + task.ID)
		if res := b.submit(other, "task-form", url.Values{"decision": {"approve"}, "amount": {"5"}}, other.one("action-approve")); res.status != http.StatusSeeOther {
			t.Fatalf("complete in the other tab: %d", res.status)
		}
		res := refusedComplete(t, b, p, task.ID, url.Values{"amount": {"abc"}, "decision": nil})
		page := b.follow(res).wantStatus(http.StatusOK)
		webWantContains(t, "banner", page.text("banner-conflict"), "This task was completed by you on")
		if page.has("form-error") || page.has("error-amount") || strings.Contains(page.body, "The form has errors") {
			t.Fatal("the page says the form has errors as well as that the task was completed")
		}
	})
	t.Run("German", func(t *testing.T) {
		de := f.signIn(t, "ann")
		de.lang = "de"
		task, p := claimed(t, f, de, webTaskOpts{})
		other := de.get("/tasks/" + task.ID)
		de.submit(other, "task-form", url.Values{"decision": {"approve"}, "amount": {"5"}}, other.one("action-approve"))
		page := de.follow(refusedComplete(t, de, p, task.ID, url.Values{"decision": {"approve"}, "amount": {"5"}}))
		webWantContains(t, "banner", page.text("banner-conflict"), "Diese Aufgabe wurde von Ihnen am")
	})
	t.Run("HostileInput", func(t *testing.T) {
		_, p := claimed(t, f, b, webTaskOpts{})
		huge := strings.Repeat("x", 300<<10) // over what a completion may carry
		set := url.Values{"comment": {huge}, "amount": {"abc"}, "title": {"<script>alert(1)</script>\u202e"}}
		for i := range 200 {
			set.Set("junk"+strings.Repeat("k", i), "v")
		}
		res := b.submit(p, "task-form", set, p.one("action-approve"))
		if res.status != http.StatusSeeOther {
			t.Fatalf("hostile completion answered %d; body %.300s", res.status, res.body)
		}
		page := b.follow(res).wantStatus(http.StatusOK)
		if strings.Contains(page.body, "<script>alert(1)") || strings.Contains(page.body, huge) {
			t.Fatal("the kept input came back unescaped or unbounded")
		}
		page.one("form-error")
	})
}
