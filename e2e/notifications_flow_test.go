package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v5"

	"usertasks/mailrelay/mailrelaytest"
)

// The whole notification flow (issue 28's browser test) on the `web` binary itself: its
// delivery worker, the demo directory expanding the group, the live bell, and email through
// an in-process SMTP relay. Only the runtime (a projection) and the manager (an assignment)
// are API calls, signed with an HS256 secret the server is given.

// notifyFlowSecret signs the runtime's and the manager's bearer tokens.
var notifyFlowSecret = []byte(strings.Repeat("k", 40))

// notifyFlowServer is `web serve` in dev mode with SMTP pointed at relay (STARTTLS and AUTH,
// its certificate trusted through SSL_CERT_FILE), a fast delivery worker, and a base URL on
// the port it listens on, so the mail's links reach it.
func notifyFlowServer(t *testing.T, relay *mailrelaytest.Relay) *server {
	t.Helper()
	certFile := filepath.Join(t.TempDir(), "relay.pem")
	if err := os.WriteFile(certFile, relay.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	// The base URL must name the real port: pick a free one and hand it over (the listen
	// address is the base URL's fallback, and :0 would put port 0 in every mail).
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return startServerEnv(t,
		"USERTASKS_LISTEN_ADDR="+addr,
		"USERTASKS_BASE_URL=http://"+addr,
		"USERTASKS_SMTP_HOST="+relay.Host,
		"USERTASKS_SMTP_PORT="+strconv.Itoa(relay.Port),
		"USERTASKS_SMTP_USERNAME="+mailrelaytest.User,
		"USERTASKS_SMTP_PASSWORD="+mailrelaytest.Password,
		"USERTASKS_SMTP_FROM=User Tasks <tasks@acme.example>",
		"USERTASKS_SMTP_TLS=starttls",
		"USERTASKS_INVITATION_DISPATCHER=dev-mailbox",
		"USERTASKS_NOTIFY_INTERVAL=1s",
		// The shortest due-soon window: no seed task turns due soon while the test runs.
		"USERTASKS_DUE_SOON=1m",
		"USERTASKS_JWT_HS256_SECRET="+string(notifyFlowSecret),
		"SSL_CERT_FILE="+certFile,
	)
}

// bearer is a token of tenant acme for sub with claims added.
func bearer(t *testing.T, sub string, claims jwt.MapClaims) string {
	t.Helper()
	c := jwt.MapClaims{"sub": sub, "tenant": "acme", "exp": time.Now().Add(10 * time.Minute).Unix(), "iat": time.Now().Unix()}
	for k, v := range claims {
		c[k] = v
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(notifyFlowSecret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// apiCall sends body as JSON with the bearer token and decodes a 2xx answer into out.
func apiCall(t *testing.T, method, u, token string, body any, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, u, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, u, res.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, u, err, raw)
		}
	}
}

// project delivers a bookmark as the workflow runtime does and returns the task's id.
func project(t *testing.T, base, key, title string, task map[string]any) string {
	t.Helper()
	task["title"] = title
	rt := bearer(t, "engine", jwt.MapClaims{"permissions": []string{"user-tasks/runtime:write"}})
	var got struct {
		TaskID string `json:"taskId"`
	}
	apiCall(t, http.MethodPost, base+"/api/v1/runtime/bookmarks", rt, map[string]any{
		"workflowDefinitionId": "notify-e2e", "workflowInstanceId": "wf-" + key, "activityInstanceId": "act-" + key,
		"bookmarkId": "wf-" + key + "/act/1", "task": task,
	}, &got)
	if got.TaskID == "" {
		t.Fatal("the projection answered no task id")
	}
	return got.TaskID
}

// TestNotificationFlow: ben (German) has the inbox open; the runtime projects a task for his
// group finance, which the demo directory expands; the delivery worker shows it and the bell
// goes 0 → 1 within 2 s without a reload. He opens /notifications, follows the link and claims
// on the task page. Ava, a manager, assigns him another task: one mail reaches the SMTP relay,
// German, plain text and HTML, whose List-Unsubscribe URL, posted one-click, turns off his
// task-assigned email. Pages photographed and scanned at 1366 and 375 px.
func TestNotificationFlow(t *testing.T) {
	chromiumPath(t)
	b, shots := newBrowser(t), newShotLog(t)
	for _, vp := range []viewport{desktop, phone} {
		t.Run(vp.name, func(t *testing.T) { notificationFlow(t, b, shots, vp) })
	}
}

func notificationFlow(t *testing.T, b *browser, shots *shotLog, vp viewport) {
	relay := mailrelaytest.Start(t)
	srv := notifyFlowServer(t, relay)
	ben := b.open(t, srv.URL, "ben", vp, shots)
	ben.setLanguage("de")
	ben.signIn("acme", false)
	ben.waitVisible(testid("list-area"))
	// The demo seed's tasks notified him already: let the worker show them all, then start
	// from a read bell, as after a visit.
	ben.settleNotifications()
	ben.do("mark the seed's notifications read", fetchPost(`/api/v1/me/notifications/read`, `{"all": true}`))
	ben.reload()
	ben.waitVisible(testid("list-area"))
	if got := eval[string](ben, `document.querySelector('[data-testid="bell"]').getAttribute("data-unread")`); got != "" && got != "0" {
		t.Fatalf("the bell shows %q before the projection", got)
	}
	ben.waitLive()

	// The runtime projects a task for the group; the worker (every second) shows it.
	title := "Rechnung prüfen " + vp.name
	start := time.Now()
	first := project(t, srv.URL, "first-"+vp.name, title, map[string]any{"candidateGroups": []map[string]string{{"id": "finance"}}})
	ben.waitFor("the bell to count 1", `(() => {
		const b = document.querySelector('[data-testid="bell"]');
		return b.getAttribute("data-unread") === "1" && !document.querySelector('[data-testid="bell-count"]').hidden;
	})()`, 2*time.Second)
	t.Logf("projection → bell 1 in %v, without a reload", time.Since(start).Round(time.Millisecond))
	if nav := eval[string](ben, `performance.getEntriesByType("navigation").at(-1).type`); nav != "reload" {
		t.Fatalf("the page was %q since the bell was read: it reloaded", nav)
	}
	ben.shot("inbox-bell")
	ben.axe("inbox with the bell")

	ben.submit("open the notifications", testid("bell"))
	ben.waitVisible(testid("notifications"))
	if got := eval[string](ben, `document.querySelector('[data-testid="notification-link"]').textContent`); !strings.Contains(got, title) {
		t.Fatalf("the newest notification names %q, want %q", got, title)
	}
	// The title reads as a title: beside "Als gelesen markieren" on a phone it was once
	// squeezed into a column of broken words.
	if lines := eval[int](ben, `document.querySelector('[data-testid="notification-link"]').getClientRects().length`); lines > 2 {
		t.Errorf("the newest notification's title takes %d lines at %s", lines, vp.name)
	}
	ben.shot("notifications")
	ben.axe("notifications")

	ben.submit("follow the notification's link", testid("notification-link"))
	ben.waitVisible(testid("task-page"))
	if got := eval[string](ben, `document.querySelector('[data-task-page]').getAttribute("data-task-id")`); got != first {
		t.Fatalf("the link led to task %q, want %q", got, first)
	}
	ben.submit("claim on the task page", testid("task-claim"))
	ben.waitVisible(testid("task-page"))
	if got := eval[string](ben, fmt.Sprintf(`fetch("/api/v1/user-tasks/%s").then(r => r.json()).then(t => t.assignee ? t.assignee.id : "")`, first)); got != "ben" {
		t.Fatalf("after the claim the assignee is %q, want ben", got)
	}
	ben.shot("task-claimed")
	ben.axe("task page after the claim")
	ben.checkNoErrors()

	// Ava assigns him another task: the worker mails it (task-assigned is on by default).
	second := project(t, srv.URL, "second-"+vp.name, "Lieferant prüfen "+vp.name, map[string]any{"candidateGroups": []map[string]string{{"id": "purchasing"}}})
	ava := bearer(t, "ava", jwt.MapClaims{"name": "Ava Adams", "permissions": []string{"user-tasks:*"}, "roles": []string{"user-tasks:manager"}})
	var task struct {
		Revision int `json:"revision"`
	}
	apiCall(t, http.MethodGet, srv.URL+"/api/v1/user-tasks/"+second, ava, nil, &task)
	apiCall(t, http.MethodPost, srv.URL+"/api/v1/user-tasks/"+second+"/assign", ava,
		map[string]any{"expectedRevision": task.Revision, "assignee": map[string]string{"type": "user", "id": "ben"}}, nil)
	// The seed's own task-assigned mails reached the relay too (sent before ben signed in,
	// in English): the one of this flow is the one linking to the second task.
	link := srv.URL + "/tasks/" + second
	m := waitMail(t, relay, link, 15*time.Second)
	header, parts := mailrelaytest.Read(t, m)
	if len(m.To) != 1 || m.To[0] != "ben@acme.example" {
		t.Fatalf("the mail went to %v, want ben@acme.example", m.To)
	}
	if !m.TLS {
		t.Error("the mail was sent without TLS")
	}
	subject, err := decodeHeader(header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ihnen zugewiesen: Lieferant prüfen " + vp.name; subject != want {
		t.Errorf("subject %q, want %q (German)", subject, want)
	}
	if parts["text/plain"] == "" || parts["text/html"] == "" {
		t.Fatalf("the mail's parts are %v, want text/plain and text/html", keys(parts))
	}
	if !strings.Contains(parts["text/plain"], link) || !strings.Contains(parts["text/html"], link) {
		t.Errorf("the mail does not link to %s", link)
	}
	if got := header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post %q", got)
	}
	unsub := strings.Trim(header.Get("List-Unsubscribe"), "<>")
	if !strings.HasPrefix(unsub, srv.URL+"/notifications/unsubscribe?") {
		t.Fatalf("List-Unsubscribe %q is not this server's unsubscribe link", unsub)
	}

	// One click, as a mail provider sends it: no session, the form body only.
	res, err := http.PostForm(unsub, url.Values{"List-Unsubscribe": {"One-Click"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the one-click unsubscribe answered %d, want 200", res.StatusCode)
	}
	var prefs struct {
		Email  map[string]bool `json:"email"`
		Digest string          `json:"digest"`
	}
	apiCall(t, http.MethodGet, srv.URL+"/api/v1/me/notification-preferences",
		bearer(t, "ben", jwt.MapClaims{"permissions": []string{"user-tasks:view"}}), nil, &prefs)
	if prefs.Email["task-assigned"] {
		t.Error("after the unsubscribe task-assigned email is still on")
	}
	if !prefs.Email["overdue"] {
		t.Error("the unsubscribe turned off overdue too: a single mail's link turns off its trigger only")
	}
	ben.navigate("/settings/notifications")
	ben.waitVisible(testid("notification-settings"))
	if eval[bool](ben, `document.querySelector('[data-testid="email-task-assigned"]').checked`) {
		t.Error("the settings page still shows task-assigned email on")
	}
	if !eval[bool](ben, `document.querySelector('[data-testid="email-overdue"]').checked`) {
		t.Error("the settings page shows overdue email off")
	}
	ben.shot("settings-after-unsubscribe")
	ben.axe("notification settings")
	if got := len(mailsLinking(t, relay, link)); got != 1 {
		t.Errorf("%d mails link to the assigned task, want 1", got)
	}
	if got := mailsLinking(t, relay, srv.URL+"/tasks/"+first); len(got) != 0 {
		t.Errorf("%d mails link to the claimed task, want none (task-available mails are off by default, one's own claim notifies nobody)", len(got))
	}
	ben.checkNoErrors()
}

// fetchPost posts JSON from the page with its session and CSRF token (the meta tag).
func fetchPost(path, body string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`fetch(%q, {method: "POST", headers: {"Content-Type": "application/json",
		"X-CSRF-Token": (document.querySelector('meta[name="csrf-token"]') || {}).content || ""}, body: %q})
		.then(r => { if (!r.ok) throw new Error("POST %s: " + r.status); })`, path, body, path), chromedp.EvalAwaitPromise)
}

// settleNotifications waits until the delivery worker has shown what the demo seed caused:
// the count of p's notifications is the same on three reads a worker interval apart (the
// seed's group rows are expanded and shown over a few runs).
func (p *page) settleNotifications() {
	p.t.Helper()
	last, same := -1, 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		n := eval[int](p, `fetch("/api/v1/me/notifications?limit=200").then(r => r.json()).then(b => b.items.length)`)
		if n == 200 {
			p.t.Fatal("the seed gave more than one page of notifications: the count cannot tell when they stop")
		}
		if n == last {
			if same++; same == 3 {
				return
			}
			continue
		}
		last, same = n, 0
	}
	p.t.Fatal("the seed's notifications kept coming for a minute")
}

// waitMail waits for the relay's first mail whose plain text part holds link.
func waitMail(t *testing.T, relay *mailrelaytest.Relay, link string, timeout time.Duration) mailrelaytest.Mail {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ms := mailsLinking(t, relay, link); len(ms) > 0 {
			return ms[0]
		}
	}
	t.Fatalf("no mail linking to %s reached the relay within %v", link, timeout)
	return mailrelaytest.Mail{}
}

// mailsLinking are the relay's mails whose plain text part holds link.
func mailsLinking(t *testing.T, relay *mailrelaytest.Relay, link string) []mailrelaytest.Mail {
	t.Helper()
	var out []mailrelaytest.Mail
	for _, m := range relay.Mails() {
		if _, parts := mailrelaytest.Read(t, m); strings.Contains(parts["text/plain"], link) {
			out = append(out, m)
		}
	}
	return out
}

func decodeHeader(s string) (string, error) {
	return new(mime.WordDecoder).DecodeHeader(s)
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
