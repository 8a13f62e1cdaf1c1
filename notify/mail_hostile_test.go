package notify_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"usertasks/models"
	"usertasks/notify"
)

// TestMailHostileTitle: a title (and a reference, a workflow name, an actor's name) with line
// breaks, a header of its own, control and bidirectional-override characters, HTML, non-ASCII
// and 512 characters cannot add a header or a recipient, cannot break the subject, and shows
// as text in the HTML.
func TestMailHostileTitle(t *testing.T) {
	injected := "Pay now\r\nBcc: eve@example.net\r\nX-Evil: 1\n\nbody<script>alert(1)</script>\u202egnp.exe\x00\x07 Ärger ✓"
	long := injected + strings.Repeat("ü", 512-utf8.RuneCountInString(injected))
	for name, title := range map[string]string{"Injected": injected, "Long": long} {
		t.Run(name, func(t *testing.T) {
			m, _, srv := mailer(t)
			n := notification("n-1", models.TriggerTaskAssigned, "task-1", due)
			n.Actor.DisplayName = "Mallory\r\nReply-To: eve@example.net <b>bold</b>"
			tk := task("task-1", title)
			tk.Reference = "REF\r\nCc: eve@example.net"
			tk.Workflow = "<img src=x onerror=alert(1)>"
			if err := m.Send(context.Background(), recipient("en", ""), n, tk); err != nil {
				t.Fatal(err)
			}
			r := onlyMail(t, srv)
			if len(r.to) != 1 || r.to[0] != "ada@example.net" {
				t.Fatalf("envelope recipients %v", r.to)
			}
			for _, h := range []string{"Bcc", "Cc", "X-Evil", "Reply-To"} {
				if v := r.header.Get(h); v != "" {
					t.Errorf("header %s: %q", h, v)
				}
			}
			if strings.ContainsAny(r.subject, "\r\n\x00\x07\u202e") || !strings.HasPrefix(r.subject, "Assigned to you: Pay now Bcc: eve@example.net X-Evil: 1 body<script>") {
				t.Errorf("subject %q", r.subject)
			}
			if utf8.RuneCountInString(r.subject) > 200 {
				t.Errorf("subject of %d characters", utf8.RuneCountInString(r.subject))
			}
			if name == "Long" && !strings.HasSuffix(r.subject, "…") {
				t.Errorf("a cut subject ends %q", r.subject[len(r.subject)-10:])
			}
			for _, bad := range []string{"<script>", "<img", "<b>", "\u202e"} {
				if strings.Contains(r.html, bad) {
					t.Errorf("html carries %q", bad)
				}
			}
			if !strings.Contains(r.html, "&lt;script&gt;") || !strings.Contains(r.html, "Ärger ✓") {
				t.Errorf("html lost the escaped title or its non-ASCII:\n%s", r.html)
			}
			for _, line := range strings.Split(r.text, "\n") {
				if strings.HasPrefix(line, "Bcc:") || strings.HasPrefix(line, "Cc:") || strings.HasPrefix(line, "Reply-To:") {
					t.Errorf("a text line starts like a header: %q", line)
				}
			}
			headerLines(t, r.raw)
		})
	}
}

// TestMailLongestUnsubscribeLink: the longest tenant, provider and user id (non-ASCII, with
// `/?#` and spaces) still make a List-Unsubscribe line within RFC 5322's 998 characters, and
// the link's token names them exactly.
func TestMailLongestUnsubscribeLink(t *testing.T) {
	m, tokens, srv := mailer(t)
	user := models.ParticipantRef{Tenant: strings.Repeat("t", models.MaxTenantLength), Provider: strings.Repeat("p", models.MaxProviderLength),
		Type: models.UserParticipant, ID: strings.Repeat("é/?# ", models.MaxParticipantIDLength/6)}
	n := notification("n-1", models.TriggerTaskAssigned, "task/?# 1", due)
	n.Tenant, n.Recipient = user.Tenant, user
	to := recipient("en", "")
	to.Person.User = user
	if err := m.Send(context.Background(), to, n, notify.Task{ID: "task/?# 1", Title: "T"}); err != nil {
		t.Fatal(err)
	}
	r := onlyMail(t, srv)
	headerLines(t, r.raw)
	u, err := tokens.Parse(unsubscribeToken(t, r))
	if err != nil || u.Tenant != user.Tenant || u.User.Provider != user.Provider || u.User.ID != user.ID {
		t.Fatalf("token names %+v (%v)", u, err)
	}
	if !strings.Contains(r.text, baseURL+"/tasks/task%2F%3F%23%201") {
		t.Fatalf("the task link does not escape the id:\n%s", r.text)
	}
}

// headerLines fails on a header line longer than RFC 5322 allows.
func headerLines(t *testing.T, raw string) {
	t.Helper()
	head, _, _ := strings.Cut(raw, "\r\n\r\n")
	for _, line := range strings.Split(head, "\r\n") {
		if len(line) > 998 {
			t.Errorf("a header line of %d characters: %.60q…", len(line), line)
		}
	}
}
