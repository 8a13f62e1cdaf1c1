package mailrelay_test

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"usertasks/mailrelay"
	"usertasks/mailrelay/mailrelaytest"
)

func send(t *testing.T, cfg mailrelay.Config, to string) error {
	t.Helper()
	r, err := mailrelay.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := r.NewMsg(to)
	if err != nil {
		return err
	}
	msg.Subject("hello")
	msg.SetBodyString("text/plain", "hello")
	return r.Send(context.Background(), msg)
}

func TestRelaySendsOverSTARTTLSWithAuth(t *testing.T) {
	srv := mailrelaytest.Start(t)
	if err := send(t, srv.Config("User Tasks <tasks@example.org>"), "ada@example.net"); err != nil {
		t.Fatal(err)
	}
	got := srv.Mails()
	if len(got) != 1 || !got[0].TLS || got[0].User != mailrelaytest.User || got[0].From != "tasks@example.org" {
		t.Fatalf("mails %+v", got)
	}
}

// TestRelayErrorsSayWhetherToRetry: a refused recipient and an address that does not parse
// are final; authentication, TLS and an unreachable relay are the operator's to fix, retried.
func TestRelayErrorsSayWhetherToRetry(t *testing.T) {
	srv := mailrelaytest.Start(t)
	srv.Refuse("nobody@example.net")
	wrongPass := srv.Config("tasks@example.org")
	wrongPass.Password = "wrong-password-xyz"
	untrusted := srv.Config("tasks@example.org")
	untrusted.TLSConfig = &tls.Config{ServerName: "localhost"}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close()
	down := mailrelay.Config{Host: "127.0.0.1", Port: closed, From: "tasks@example.org", Timeout: time.Second}
	for _, c := range []struct {
		name      string
		cfg       mailrelay.Config
		to        string
		code      string
		permanent bool
	}{
		{"RecipientRefused", srv.Config("tasks@example.org"), "nobody@example.net", "smtp-rcpt-550", true},
		{"BadRecipient", srv.Config("tasks@example.org"), "ada@example.net\r\nBcc: eve@example.net", mailrelay.CodeBadRecipient, true},
		{"WrongPassword", wrongPass, "ada@example.net", "smtp-auth-535", false},
		{"UntrustedCertificate", untrusted, "ada@example.net", mailrelay.CodeTLS, false},
		{"Unreachable", down, "ada@example.net", mailrelay.CodeUnreachable, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := send(t, c.cfg, c.to)
			if got := mailrelay.Code(err); got != c.code || mailrelay.Permanent(err) != c.permanent {
				t.Fatalf("code %q permanent %v (%v), want %q %v", got, mailrelay.Permanent(err), err, c.code, c.permanent)
			}
			for _, secret := range []string{"wrong-password-xyz", "example.net", "no such user"} {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q repeats %q", err, secret)
				}
			}
		})
	}
	if n := len(srv.Mails()); n != 0 {
		t.Fatalf("%d mails went out", n)
	}
}

func TestRelayDomain(t *testing.T) {
	for from, want := range map[string]string{"User Tasks <tasks@example.org>": "example.org", "a@mail.example.com": "mail.example.com"} {
		r, err := mailrelay.New(mailrelay.Config{Host: "h", From: from})
		if err != nil || r.Domain() != want {
			t.Errorf("%s: domain %q (%v), want %q", from, r.Domain(), err, want)
		}
	}
}
