package invitations_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/invitations"
)

const webhookSecret = "0123456789abcdef0123456789abcdef-secret"

type hookCall struct {
	path, sig, key, ctype string
	body                  []byte
}

// hookServer answers status to every POST and records what it got.
func hookServer(t *testing.T, status int) (*httptest.Server, func() []hookCall) {
	t.Helper()
	var mu sync.Mutex
	var calls []hookCall
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls = append(calls, hookCall{path: r.URL.Path, sig: r.Header.Get("X-UserTasks-Signature"), key: r.Header.Get("Idempotency-Key"),
			ctype: r.Header.Get("Content-Type"), body: b})
		mu.Unlock()
		if r.URL.Path == "/slow" {
			time.Sleep(300 * time.Millisecond)
		}
		w.WriteHeader(status)
		io.WriteString(w, "echo "+string(b))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []hookCall { mu.Lock(); defer mu.Unlock(); return append([]hookCall(nil), calls...) }
}

func TestWebhookPostsSignedJSONWithAStableIdempotencyKey(t *testing.T) {
	srv, calls := hookServer(t, http.StatusAccepted)
	w, err := invitations.NewWebhook(srv.URL+"/hooks/usertasks", webhookSecret, invitations.WebhookOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Dispatch(context.Background(), smtpMessage); err != nil {
			t.Fatalf("dispatch: %v", err)
		}
	}
	got := calls()
	if len(got) != 2 || got[0].key != "inv-1" || got[1].key != "inv-1" || got[0].path != "/hooks/usertasks" || got[0].ctype != "application/json" {
		t.Fatalf("calls %+v", got)
	}
	if got[0].sig != invitations.Sign(got[0].body, []byte(webhookSecret)) || !strings.HasPrefix(got[0].sig, "sha256=") || len(got[0].sig) != 71 {
		t.Fatalf("signature %q does not verify", got[0].sig)
	}
	var body map[string]any
	if err := json.Unmarshal(got[0].body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"tenant": "t1", "taskId": "task-1", "invitationId": "inv-1", "recipient": "guest@example.net",
		"link": "https://tasks.example.org/app/guest?t=tok_EN-x", "code": "042137", "expiresAt": "2026-12-10T09:30:00Z"}
	if len(body) != len(want) {
		t.Fatalf("body %v", body)
	}
	for k, v := range want {
		if body[k] != v {
			t.Errorf("%s = %v, want %v", k, body[k], v)
		}
	}
	t.Run("CodeOmittedForBearer", func(t *testing.T) {
		m := smtpMessage
		m.Code = ""
		if err := w.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		if last := calls()[2]; strings.Contains(string(last.body), `"code"`) {
			t.Fatalf("body %s", last.body)
		}
	})
}

func TestWebhookFailuresCarryASafeCode(t *testing.T) {
	notFound, _ := hookServer(t, http.StatusNotFound)
	redirect, _ := hookServer(t, http.StatusFound)
	ok, _ := hookServer(t, http.StatusNoContent)
	cases := []struct {
		name, url string
		timeout   time.Duration
		want      string
	}{
		{"ProxyAnswers404", notFound.URL + "/x", 0, "webhook-status-404"},
		{"RedirectIsNotSuccess", redirect.URL, 0, "webhook-status-302"},
		{"Timeout", ok.URL + "/slow", 50 * time.Millisecond, invitations.CodeTimeout},
		{"Unreachable", "http://127.0.0.1:1/hook", 0, "webhook-unreachable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := invitations.NewWebhook(c.url, webhookSecret, invitations.WebhookOptions{Timeout: c.timeout})
			if err != nil {
				t.Fatal(err)
			}
			err = w.Dispatch(context.Background(), smtpMessage)
			if got := invitations.ErrorCode(err); got != c.want {
				t.Fatalf("code %q (%v), want %q", got, err, c.want)
			}
			for _, secret := range []string{"tok_EN-x", "042137", "example.net", "127.0.0.1", "echo"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q repeats %q", err, secret)
				}
			}
		})
	}
}

func TestWebhookRefusesBadConfiguration(t *testing.T) {
	for name, c := range map[string][2]string{
		"ShortSecret":   {"https://h.example/x", "short"},
		"NotAbsolute":   {"/hook", webhookSecret},
		"BadScheme":     {"ftp://h.example/x", webhookSecret},
		"Credentials":   {"https://u:p@h.example/x", webhookSecret},
		"ControlChars":  {"https://h.example/\x00", webhookSecret},
		"EmptyHostName": {"https:///x", webhookSecret},
	} {
		if _, err := invitations.NewWebhook(c[0], c[1], invitations.WebhookOptions{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestDevMailboxKeepsTheNewestPerTenant(t *testing.T) {
	b := invitations.NewDevMailbox(3)
	for i, tenant := range []string{"t1", "t2", "t1", "t1", "t1"} {
		m := smtpMessage
		m.Tenant, m.InvitationID = tenant, string(rune('a'+i))
		if err := b.Dispatch(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	got := b.Messages("t1")
	if len(got) != 3 || got[0].InvitationID != "e" || got[2].InvitationID != "c" || got[0].SentAt.IsZero() {
		t.Fatalf("t1 mailbox %+v", got)
	}
	if len(b.Messages("t2")) != 0 { // pushed out by the bound
		t.Fatalf("t2 kept %d", len(b.Messages("t2")))
	}
}
