package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
)

// TestMailPerTrigger: one mail per trigger, in English and German, the subject naming the
// trigger and the title, the due time in the person's zone, the safe fields, the task link,
// and the one-click unsubscribe of that trigger.
func TestMailPerTrigger(t *testing.T) {
	subjects := map[string]map[models.NotificationTrigger]string{
		"en": {
			models.TriggerTaskAvailable: "New task available: ", models.TriggerTaskAssigned: "Assigned to you: ",
			models.TriggerDueSoon: "Due soon: ", models.TriggerOverdue: "Overdue: ", models.TriggerEscalated: "Escalated: ",
			models.TriggerMentioned: "You were mentioned: ", models.TriggerCommentAdded: "New comment: ", models.TriggerReturned: "Returned to you: ",
		},
		"de": {
			models.TriggerTaskAvailable: "Neue Aufgabe verfügbar: ", models.TriggerTaskAssigned: "Ihnen zugewiesen: ",
			models.TriggerDueSoon: "Bald fällig: ", models.TriggerOverdue: "Überfällig: ", models.TriggerEscalated: "Eskaliert: ",
			models.TriggerMentioned: "Sie wurden erwähnt: ", models.TriggerCommentAdded: "Neuer Kommentar: ", models.TriggerReturned: "An Sie zurückgegeben: ",
		},
	}
	for _, lang := range []struct {
		code, zone, due, lead, open, priority string
	}{
		{"en", "America/New_York", "10 Dec 2026, 04:30 EST", "Grace Hopper assigned this task to you.", "Open the task", "High · 80"},
		{"de", "Europe/Berlin", "10. Dez. 2026, 10:30 CET", "Grace Hopper hat Ihnen diese Aufgabe zugewiesen.", "Aufgabe öffnen", "Hoch · 80"},
	} {
		for _, trigger := range models.NotificationTriggers {
			t.Run(lang.code+"/"+string(trigger), func(t *testing.T) {
				m, tokens, srv := mailer(t)
				n := notification("n-1", trigger, "task-1", due.Add(-time.Hour))
				if err := m.Send(context.Background(), recipient(lang.code, lang.zone), n, task("task-1", "Approve invoice 7")); err != nil {
					t.Fatalf("send: %v", err)
				}
				r := onlyMail(t, srv)
				if want := subjects[lang.code][trigger] + "Approve invoice 7"; r.subject != want {
					t.Errorf("subject %q, want %q", r.subject, want)
				}
				if len(r.to) != 1 || r.to[0] != "ada@example.net" {
					t.Errorf("envelope recipients %v", r.to)
				}
				for _, part := range []string{r.text, r.html} {
					for _, want := range []string{lang.due, lang.open, lang.priority, "INV-7", "Invoices", baseURL + "/tasks/task-1"} {
						if !strings.Contains(part, want) {
							t.Errorf("a part lacks %q:\n%s", want, part)
						}
					}
				}
				if strings.Contains(r.raw, "%!") {
					t.Errorf("a format verb went wrong:\n%s", r.text)
				}
				if !strings.Contains(r.html, `<html lang="`+lang.code+`">`) {
					t.Errorf("html lang:\n%s", r.html)
				}
				if trigger == models.TriggerTaskAssigned && !strings.Contains(r.text, lang.lead) {
					t.Errorf("text lacks the lead %q:\n%s", lang.lead, r.text)
				}
				if r.header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || r.header.Get("Auto-Submitted") != "auto-generated" {
					t.Errorf("headers %v", r.header)
				}
				u, err := tokens.Parse(unsubscribeToken(t, r))
				if err != nil || u.Tenant != "t1" || u.User.ID != "ada" || u.User.Provider != "oidc" || u.Trigger != trigger {
					t.Errorf("unsubscribe names %+v (%v)", u, err)
				}
				if !strings.Contains(r.text, baseURL+"/notifications/unsubscribe?t=") || !strings.Contains(r.html, baseURL+"/settings/notifications") {
					t.Errorf("the body lacks the unsubscribe or settings link:\n%s", r.text)
				}
			})
		}
	}
}

// TestMailZoneAndLanguageFallbacks: no zone or an unknown one is UTC; an unknown language is
// English.
func TestMailZoneAndLanguageFallbacks(t *testing.T) {
	for _, c := range []struct{ lang, zone string }{{"", ""}, {"fr", "Mars/Olympus_Mons"}} {
		m, _, srv := mailer(t)
		if err := m.Send(context.Background(), recipient(c.lang, c.zone), notification("n-1", models.TriggerOverdue, "task-1", due), task("task-1", "T")); err != nil {
			t.Fatal(err)
		}
		if r := onlyMail(t, srv); !strings.Contains(r.text, "10 Dec 2026, 09:30 UTC") || r.subject != "Overdue: T" {
			t.Errorf("%+v: subject %q, text:\n%s", c, r.subject, r.text)
		}
	}
}

// TestMailSaysOnlySafeFields: the mail names the actor by display name only (never their id),
// and nothing of the person's address or of the Message-ID's sources is readable.
func TestMailSaysOnlySafeFields(t *testing.T) {
	m, _, srv := mailer(t)
	n := notification("n-secret-id", models.TriggerTaskAssigned, "task-1", due)
	n.Actor = &models.ParticipantRef{Provider: "oidc", Type: models.UserParticipant, ID: "actor-internal-id-42"}
	if err := m.Send(context.Background(), recipient("en", ""), n, task("task-1", "T")); err != nil {
		t.Fatal(err)
	}
	r := onlyMail(t, srv)
	if strings.Contains(r.raw, "actor-internal-id-42") || strings.Contains(r.raw, "n-secret-id") {
		t.Fatalf("the mail names the actor's id or the notification id:\n%s", r.raw)
	}
	if !strings.Contains(r.text, "This task was assigned to you.") {
		t.Fatalf("a nameless actor's lead:\n%s", r.text)
	}
	if id := r.header.Get("Message-Id"); !strings.HasSuffix(id, "@example.org>") {
		t.Fatalf("Message-ID %q", id)
	}
}

// TestMailRetryKeepsMessageID: the same notification mailed twice (at least once) carries the
// same Message-ID, so mail stores that drop duplicate ids show it once; another notification
// gets another id.
func TestMailRetryKeepsMessageID(t *testing.T) {
	m, _, srv := mailer(t)
	ctx := context.Background()
	for _, id := range []string{"n-1", "n-1", "n-2"} {
		if err := m.Send(ctx, recipient("en", ""), notification(id, models.TriggerOverdue, "task-1", due), task("task-1", "T")); err != nil {
			t.Fatal(err)
		}
	}
	got := srv.Mails()
	var ids []string
	for _, g := range got {
		h, _ := readHeader(t, g.Data)
		ids = append(ids, h)
	}
	if len(ids) != 3 || ids[0] != ids[1] || ids[0] == ids[2] {
		t.Fatalf("Message-IDs %v", ids)
	}
}

// TestMailRefusals: no address, a group or a guest are refused for good before the relay; a
// refused recipient is final (ErrPermanent) with a safe code; a relay that is down is retried.
func TestMailRefusals(t *testing.T) {
	m, _, srv := mailer(t)
	srv.Refuse("nobody@example.net")
	ctx := context.Background()
	n := notification("n-1", models.TriggerOverdue, "task-1", due)
	noAddress := recipient("en", "")
	noAddress.Address = " "
	refused := recipient("en", "")
	refused.Address = "nobody@example.net"
	injected := recipient("en", "")
	injected.Address = "ada@example.net\r\nBcc: eve@example.net"
	group := n
	group.Recipient = models.ParticipantRef{Provider: "oidc", Type: models.GroupParticipant, ID: "finance"}
	guest := n
	guest.Recipient = models.GuestRef("t1", "inv-1")
	for _, c := range []struct {
		name string
		to   notify.Recipient
		n    models.Notification
		code string
	}{
		{"NoAddress", noAddress, n, notify.MailNoAddress},
		{"Group", recipient("en", ""), group, notify.MailNotAUser},
		{"Guest", recipient("en", ""), guest, notify.MailNotAUser},
		{"RecipientRefused", refused, n, "smtp-rcpt-550"},
		{"HeaderInAddress", injected, n, "smtp-bad-recipient"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := m.Send(ctx, c.to, c.n, task("task-1", "T"))
			if !errors.Is(err, notify.ErrPermanent) || notify.MailErrorCode(err) != c.code {
				t.Fatalf("err %v (code %q), want permanent %q", err, notify.MailErrorCode(err), c.code)
			}
			if strings.Contains(err.Error(), "example.net") {
				t.Fatalf("error %q names the address", err)
			}
		})
	}
	if n := len(srv.Mails()); n != 0 {
		t.Fatalf("%d mails went out", n)
	}
	t.Run("RelayDown", func(t *testing.T) {
		down := downMailer(t)
		err := down.Send(ctx, recipient("en", ""), n, task("task-1", "T"))
		if err == nil || errors.Is(err, notify.ErrPermanent) || notify.MailErrorCode(err) != "smtp-unreachable" {
			t.Fatalf("err %v (code %q), want a retried smtp-unreachable", err, notify.MailErrorCode(err))
		}
	})
}
