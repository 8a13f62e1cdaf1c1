package handlers_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/handlers"
	"usertasks/mailrelay"
	"usertasks/mailrelay/mailrelaytest"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// unsubscribeFixture is the web server with the unsubscribe link on a real SQLite store, and
// the tokens its mails carry.
type unsubscribeFixture struct {
	*webFixture
	tokens *notify.UnsubscribeTokens
}

var (
	unsubAda   = models.ParticipantRef{Provider: "dev", Type: models.UserParticipant, ID: "ada /?#é"}
	unsubOther = models.ParticipantRef{Provider: "dev", Type: models.UserParticipant, ID: "grace"}
)

func newUnsubscribeFixture(t *testing.T) *unsubscribeFixture {
	t.Helper()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	f := &webFixture{store: store, svc: tasks.New(store, tasks.Options{}), now: time.Now()}
	var err error
	f.sessions, err = websession.New(websession.Config{Store: store, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := notify.NewUnsubscribeTokens(testfactory.Keys())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := handlers.New(handlers.Deps{Store: store, Logger: log, Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, Logger: log,
		Unsubscribe: notify.NewUnsubscriber(tokens, store)}})
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	ctx := context.Background()
	for tenant, lang := range map[string]string{"t1": "de", "t2": "en"} {
		if _, err := store.RecordPerson(ctx, models.Person{Tenant: tenant, User: unsubAda, Email: "ada@example.net", Language: lang}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	return &unsubscribeFixture{webFixture: f, tokens: tokens}
}

func (f *unsubscribeFixture) token(t *testing.T, tenant string, user models.ParticipantRef, trigger models.NotificationTrigger) string {
	t.Helper()
	tok, err := f.tokens.Token(notify.Unsubscription{Tenant: tenant, User: user, Trigger: trigger})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (f *unsubscribeFixture) prefs(t *testing.T, tenant string, user models.ParticipantRef) models.NotificationPreferences {
	t.Helper()
	p, err := f.store.Person(context.Background(), tenant, user)
	if errors.Is(err, models.ErrNotFound) {
		return models.DefaultNotificationPreferences()
	}
	if err != nil {
		t.Fatal(err)
	}
	return p.Preferences
}

// oneClick POSTs what a mail client sends for List-Unsubscribe-Post: no cookie, no Origin,
// the body List-Unsubscribe=One-Click, to the link with its token.
func (f *unsubscribeFixture) oneClick(t *testing.T, link, body, contentType string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, link, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (f *unsubscribeFixture) link(tok string) string {
	return f.srv.URL + "/notifications/unsubscribe?t=" + url.QueryEscape(tok)
}

func TestUnsubscribePage(t *testing.T) {
	f := newUnsubscribeFixture(t)
	tok := f.token(t, "t1", unsubAda, models.TriggerTaskAssigned)
	t.Run("GETChangesNothing", func(t *testing.T) {
		p := f.browser(t).get("/notifications/unsubscribe?t=" + url.QueryEscape(tok)).wantStatus(http.StatusOK)
		if !p.has("unsubscribe-confirm") || !p.has("unsubscribe-form") || p.lang() != "de" {
			t.Fatalf("page (lang %q):\n%s", p.lang(), p.body)
		}
		if got := p.text("unsubscribe-message"); got != "Sie erhalten keine E-Mail mehr, wenn das geschieht." {
			t.Errorf("message %q", got)
		}
		if !strings.Contains(p.body, "Keine E-Mails mehr für „Ihnen zugewiesen“?") {
			t.Errorf("the heading does not name the trigger as the mail does:\n%s", p.body)
		}
		if p.header.Get("Referrer-Policy") != "no-referrer" || p.header.Get("Cache-Control") != "no-store" {
			t.Errorf("headers %v", p.header)
		}
		if !f.prefs(t, "t1", unsubAda).EmailOn(models.TriggerTaskAssigned) {
			t.Fatal("a GET unsubscribed")
		}
	})
	t.Run("ButtonPostsOneClick", func(t *testing.T) {
		b := f.browser(t)
		p := b.get("/notifications/unsubscribe?t=" + url.QueryEscape(tok))
		done := b.submit(p, "unsubscribe-form", nil, nil).wantStatus(http.StatusOK)
		if !done.has("unsubscribe-done") || !strings.Contains(done.text("unsubscribe-message"), "„Ihnen zugewiesen“") {
			t.Fatalf("page:\n%s", done.body)
		}
		got := f.prefs(t, "t1", unsubAda)
		if got.EmailOn(models.TriggerTaskAssigned) || !got.EmailOn(models.TriggerOverdue) {
			t.Fatalf("preferences %+v", got)
		}
		if !f.prefs(t, "t2", unsubAda).EmailOn(models.TriggerTaskAssigned) {
			t.Fatal("the person of another tenant with the same id was unsubscribed")
		}
		again := b.get("/notifications/unsubscribe?t=" + url.QueryEscape(tok)).wantStatus(http.StatusOK)
		if !again.has("unsubscribe-done") || again.has("unsubscribe-form") {
			t.Fatalf("the page of an email already off:\n%s", again.body)
		}
	})
}

// TestUnsubscribeOneClick: RFC 8058's POST, urlencoded or multipart, without a session or a
// CSRF token, turns the trigger's email off and answers 200; without List-Unsubscribe=One-Click
// it is refused and changes nothing.
func TestUnsubscribeOneClick(t *testing.T) {
	f := newUnsubscribeFixture(t)
	overdue := f.link(f.token(t, "t2", unsubAda, models.TriggerOverdue))
	if status, body := f.oneClick(t, overdue, "List-Unsubscribe=Nope", "application/x-www-form-urlencoded"); status != http.StatusBadRequest {
		t.Fatalf("without One-Click: %d\n%s", status, body)
	}
	if !f.prefs(t, "t2", unsubAda).EmailOn(models.TriggerOverdue) {
		t.Fatal("a refused POST unsubscribed")
	}
	if status, body := f.oneClick(t, overdue, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"); status != http.StatusOK || !strings.Contains(body, `data-testid="unsubscribe-done"`) {
		t.Fatalf("one-click: %d\n%s", status, body)
	}
	if f.prefs(t, "t2", unsubAda).EmailOn(models.TriggerOverdue) {
		t.Fatal("email for overdue still on")
	}
	t.Run("Multipart", func(t *testing.T) {
		var body strings.Builder
		w := multipart.NewWriter(&body)
		_ = w.WriteField("List-Unsubscribe", "One-Click")
		_ = w.Close()
		mentioned := f.link(f.token(t, "t2", unsubAda, models.TriggerMentioned))
		if status, _ := f.oneClick(t, mentioned, body.String(), w.FormDataContentType()); status != http.StatusOK {
			t.Fatalf("status %d", status)
		}
		if f.prefs(t, "t2", unsubAda).EmailOn(models.TriggerMentioned) {
			t.Fatal("email for mentioned still on")
		}
	})
	t.Run("DigestTurnsEveryEmailOff", func(t *testing.T) {
		ctx := context.Background()
		prefs := models.DefaultNotificationPreferences()
		prefs.Digest = models.DigestDaily
		if _, err := f.store.SetNotificationPreferences(ctx, "t1", unsubOther, prefs); err != nil {
			t.Fatal(err)
		}
		if status, _ := f.oneClick(t, f.link(f.token(t, "t1", unsubOther, "")), "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"); status != http.StatusOK {
			t.Fatalf("status %d", status)
		}
		got := f.prefs(t, "t1", unsubOther)
		if got.Digest != models.DigestOff {
			t.Fatalf("digest %q", got.Digest)
		}
		for _, tr := range models.NotificationTriggers {
			if got.EmailOn(tr) {
				t.Errorf("email for %s still on", tr)
			}
		}
	})
	t.Run("CrossSiteBrowserPostRefused", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, f.link(f.token(t, "t2", unsubAda, models.TriggerEscalated)), strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden || !f.prefs(t, "t2", unsubAda).EmailOn(models.TriggerEscalated) {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
}

// TestUnsubscribeBadTokens: an altered token, one with a swapped MAC, hostile text and no
// token are all the one 404 page, for GET and POST, and change nothing.
func TestUnsubscribeBadTokens(t *testing.T) {
	f := newUnsubscribeFixture(t)
	good := f.token(t, "t1", unsubAda, models.TriggerTaskAssigned)
	other := f.token(t, "t1", unsubOther, models.TriggerTaskAssigned)
	parts, otherParts := strings.Split(good, "."), strings.Split(other, ".")
	flipped := []byte(parts[1])
	flipped[4] ^= 1 // an altered payload (its MAC no longer fits, or it no longer decodes)
	// Grace's payload under Ada's MAC, Ada's under Grace's, an altered payload.
	forged := []string{
		parts[0] + "." + otherParts[1] + "." + parts[2],
		parts[0] + "." + parts[1] + "." + otherParts[2],
		parts[0] + "." + string(flipped) + "." + parts[2],
		"u1./?#é.xyz",
		"",
		good + "A",
	}
	for i, tok := range forged {
		b := f.browser(t)
		p := b.get("/notifications/unsubscribe?t=" + url.QueryEscape(tok))
		if p.status != http.StatusNotFound || !p.has("unsubscribe-invalid") || p.has("unsubscribe-form") {
			t.Errorf("%d GET: %d\n%s", i, p.status, p.body)
		}
		status, body := f.oneClick(t, f.link(tok), "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")
		if status != http.StatusNotFound || !strings.Contains(body, `data-testid="unsubscribe-invalid"`) {
			t.Errorf("%d POST: %d", i, status)
		}
	}
	for _, u := range []models.ParticipantRef{unsubAda, unsubOther} {
		if !f.prefs(t, "t1", u).EmailOn(models.TriggerTaskAssigned) {
			t.Fatalf("a forged token unsubscribed %s", u.ID)
		}
	}
}

// TestUnsubscribeFromAMail: a notification mail, sent through the in-process relay with this
// server as its base URL, carries a List-Unsubscribe link whose one-click POST turns that
// trigger's email off in the store.
func TestUnsubscribeFromAMail(t *testing.T) {
	f := newUnsubscribeFixture(t)
	srv := mailrelaytest.Start(t)
	relay, err := mailrelay.New(srv.Config("tasks@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := notify.NewMail(relay, f.tokens, f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	n := models.Notification{ID: "n-1", Tenant: "t1", Recipient: unsubAda, TaskID: "task-1", Trigger: models.TriggerTaskAssigned, Revision: 2, Title: "T", OccurredAt: time.Now()}
	to := notify.Recipient{Person: models.Person{Tenant: "t1", User: unsubAda, Language: "de"}, Address: "ada@example.net"}
	if err := m.Send(context.Background(), to, n, notify.Task{ID: "task-1", Title: "T"}); err != nil {
		t.Fatal(err)
	}
	mails := srv.Mails()
	if len(mails) != 1 {
		t.Fatalf("%d mails", len(mails))
	}
	h, _ := mailrelaytest.Read(t, mails[0])
	if h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("List-Unsubscribe-Post %q", h.Get("List-Unsubscribe-Post"))
	}
	link, _ := new(mime.WordDecoder).DecodeHeader(h.Get("List-Unsubscribe"))
	if !strings.HasPrefix(link, "<"+f.srv.URL+"/notifications/unsubscribe?t=") {
		t.Fatalf("List-Unsubscribe %q", link)
	}
	if status, body := f.oneClick(t, strings.Trim(link, "<>"), "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded"); status != http.StatusOK {
		t.Fatalf("one-click: %d\n%s", status, body)
	}
	if f.prefs(t, "t1", unsubAda).EmailOn(models.TriggerTaskAssigned) {
		t.Fatal("email for task-assigned still on after the mail's one-click unsubscribe")
	}
}
