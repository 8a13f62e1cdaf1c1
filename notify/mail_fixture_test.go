package notify_test

import (
	"mime"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/mailrelay"
	"usertasks/mailrelay/mailrelaytest"
	"usertasks/models"
	"usertasks/notify"
)

const baseURL = "https://tasks.example.org/app"

// ring is a fresh key ring of the given key ids; the first signs.
func ring(t testing.TB, kids ...string) *keyring.Keyring {
	t.Helper()
	var specs []string
	for _, kid := range kids {
		s, err := keyring.Generate(kid)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	r, err := keyring.Parse(strings.Join(specs, ","))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mailer is a Mail on a fresh in-process relay, with its tokens.
func mailer(t testing.TB) (*notify.Mail, *notify.UnsubscribeTokens, *mailrelaytest.Relay) {
	t.Helper()
	srv := mailrelaytest.Start(t)
	relay, err := mailrelay.New(srv.Config("User Tasks <tasks@example.org>"))
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := notify.NewUnsubscribeTokens(ring(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := notify.NewMail(relay, tokens, baseURL)
	if err != nil {
		t.Fatal(err)
	}
	return m, tokens, srv
}

var (
	ada   = models.ParticipantRef{Tenant: "t1", Provider: "oidc", Type: models.UserParticipant, ID: "ada", DisplayName: "Ada Lovelace"}
	grace = models.ParticipantRef{Tenant: "t1", Provider: "oidc", Type: models.UserParticipant, ID: "grace", DisplayName: "Grace Hopper"}
	due   = time.Date(2026, 12, 10, 9, 30, 0, 0, time.UTC)
)

func recipient(lang, zone string) notify.Recipient {
	return notify.Recipient{Person: models.Person{Tenant: "t1", User: ada, Language: lang, TimeZone: zone,
		Preferences: models.DefaultNotificationPreferences()}, Address: "ada@example.net"}
}

func notification(id string, trigger models.NotificationTrigger, taskID string, at time.Time) models.Notification {
	actor := grace
	return models.Notification{ID: id, Tenant: "t1", Recipient: ada, TaskID: taskID, Trigger: trigger, Revision: 2,
		Actor: &actor, Title: "Approve invoice 7", State: models.NotificationPending, OccurredAt: at}
}

func task(id, title string) notify.Task {
	d := due
	return notify.Task{ID: id, Title: title, Reference: "INV-7", Workflow: "Invoices", DueAt: &d, Priority: 80,
		Link: baseURL + "/tasks/" + url.PathEscape(id)}
}

// received is the relay's one mail, parsed: header, decoded subject, text and HTML.
type received struct {
	raw     string
	header  mail.Header
	subject string
	text    string
	html    string
	to      []string
}

func onlyMail(t *testing.T, srv *mailrelaytest.Relay) received {
	t.Helper()
	got := srv.Mails()
	if len(got) != 1 {
		t.Fatalf("%d mails received, want 1", len(got))
	}
	m := got[0]
	if !m.TLS || m.User != mailrelaytest.User {
		t.Fatalf("sent without STARTTLS or AUTH: %+v", m)
	}
	h, parts := mailrelaytest.Read(t, m)
	subject, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if err != nil {
		t.Fatalf("subject %q: %v", h.Get("Subject"), err)
	}
	return received{raw: string(m.Data), header: h, subject: subject, text: parts["text/plain"], html: parts["text/html"], to: m.To}
}

// unsubscribeToken is the token of a mail's List-Unsubscribe link.
func unsubscribeToken(t *testing.T, r received) string {
	t.Helper()
	v := r.header.Get("List-Unsubscribe")
	if !strings.HasPrefix(v, "<"+baseURL+"/notifications/unsubscribe?t=") || !strings.HasSuffix(v, ">") {
		t.Fatalf("List-Unsubscribe %q", v)
	}
	u, err := url.Parse(strings.Trim(v, "<>"))
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("t")
}

// readHeader is the Message-ID of a raw mail.
func readHeader(t *testing.T, data []byte) (string, mail.Header) {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return msg.Header.Get("Message-Id"), msg.Header
}

// downMailer is a Mail whose relay does not answer (a closed port).
func downMailer(t *testing.T) *notify.Mail {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	relay, err := mailrelay.New(mailrelay.Config{Host: "127.0.0.1", Port: port, From: "tasks@example.org", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tokens, _ := notify.NewUnsubscribeTokens(ring(t, "k1"))
	m, err := notify.NewMail(relay, tokens, baseURL)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
