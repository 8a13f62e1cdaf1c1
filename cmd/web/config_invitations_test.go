package main

import (
	"path/filepath"
	"strings"
	"testing"

	"usertasks/invitations"
)

const testHookSecret = "0123456789abcdef0123456789abcdef"

func TestLoadConfigInvitations(t *testing.T) {
	vars := productionVarsWith
	devVars := func(t *testing.T, extra map[string]string) map[string]string {
		v := map[string]string{"USERTASKS_DEV": "true", "USERTASKS_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "ut.db")}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	t.Run("NoDispatcherOutsideDevMode", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil || cfg.Invitations.Dispatcher != "" {
			t.Fatalf("dispatcher %q, %v", cfg.Invitations.Dispatcher, err)
		}
		if d, _ := cfg.invitationDispatchers(devMailbox(cfg)); len(d) != 0 {
			t.Fatalf("dispatchers %v", d)
		}
	})
	t.Run("DevModeDefaultsToTheDevMailbox", func(t *testing.T) {
		cfg, err := loadConfig(env(devVars(t, nil)), true)
		if err != nil || cfg.Invitations.Dispatcher != invitations.DispatcherDevMailbox {
			t.Fatalf("dispatcher %q, %v", cfg.Invitations.Dispatcher, err)
		}
		d, err := cfg.invitationDispatchers(devMailbox(cfg))
		if err != nil || len(d) != 1 || d[invitations.DispatcherDevMailbox] == nil {
			t.Fatalf("dispatchers %v, %v", d, err)
		}
	})
	t.Run("OK_SMTP", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_BASE_URL": "https://tasks.example.org/prefix", "USERTASKS_INVITATION_DISPATCHER": "smtp",
			"USERTASKS_SMTP_HOST": "mail.example.org", "USERTASKS_SMTP_PORT": "2525", "USERTASKS_SMTP_USERNAME": "mailer",
			"USERTASKS_SMTP_PASSWORD": "pw", "USERTASKS_SMTP_FROM": "User Tasks <tasks@example.org>",
		})), true)
		if err != nil {
			t.Fatal(err)
		}
		s := cfg.Invitations.SMTP
		if s.Host != "mail.example.org" || s.Port != 2525 || s.Username != "mailer" || s.Password != "pw" || s.TLS != "" {
			t.Fatalf("smtp %+v", s)
		}
		if d, err := cfg.invitationDispatchers(devMailbox(cfg)); err != nil || len(d) != 1 || d[invitations.DispatcherSMTP] == nil {
			t.Fatalf("dispatchers %v, %v", d, err)
		}
	})
	t.Run("OK_Webhook", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_BASE_URL": "https://tasks.example.org", "USERTASKS_INVITATION_DISPATCHER": "webhook",
			"USERTASKS_INVITATION_WEBHOOK_URL": "http://notifier.internal/hooks/usertasks", "USERTASKS_INVITATION_WEBHOOK_SECRET": testHookSecret,
		})), true)
		if err != nil || cfg.Invitations.Dispatcher != "webhook" {
			t.Fatalf("%+v, %v", cfg.Invitations, err)
		}
	})
	for _, c := range []struct {
		name string
		dev  bool
		vars map[string]string
		want string
	}{
		{"UnknownDispatcher", false, map[string]string{"USERTASKS_INVITATION_DISPATCHER": "pigeon"}, "USERTASKS_INVITATION_DISPATCHER must be one of"},
		{"DevMailboxOutsideDev", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "dev-mailbox"}, "dev mode only"},
		{"NoBaseURL", false, map[string]string{"USERTASKS_INVITATION_DISPATCHER": "webhook",
			"USERTASKS_INVITATION_WEBHOOK_URL": "https://h.example/x", "USERTASKS_INVITATION_WEBHOOK_SECRET": testHookSecret}, "USERTASKS_BASE_URL is required"},
		{"PlainBaseURL", false, map[string]string{"USERTASKS_BASE_URL": "http://t.example", "USERTASKS_INVITATION_DISPATCHER": "webhook",
			"USERTASKS_INVITATION_WEBHOOK_URL": "https://h.example/x", "USERTASKS_INVITATION_WEBHOOK_SECRET": testHookSecret}, "must use https"},
		{"RelativeBaseURL", true, map[string]string{"USERTASKS_BASE_URL": "tasks.example.org/x"}, "absolute http(s) URL"},
		{"BaseURLWithQuery", true, map[string]string{"USERTASKS_BASE_URL": "http://t.example/?a=b"}, "absolute http(s) URL"},
		{"WebhookWithoutURL", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "webhook"}, "USERTASKS_INVITATION_WEBHOOK_URL is required"},
		{"WebhookShortSecret", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "webhook",
			"USERTASKS_INVITATION_WEBHOOK_URL": "https://h.example/x", "USERTASKS_INVITATION_WEBHOOK_SECRET": "short-secret"}, "at least 32 characters"},
		{"WebhookNoSecret", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "webhook",
			"USERTASKS_INVITATION_WEBHOOK_URL": "https://h.example/x"}, "at least 32 characters"},
		{"SMTPWithoutHost", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "smtp"}, "USERTASKS_SMTP_HOST and USERTASKS_SMTP_FROM are required"},
		{"SMTPWithoutFrom", false, map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_INVITATION_DISPATCHER": "smtp",
			"USERTASKS_SMTP_HOST": "mail.example.org"}, "sender address"},
		{"SMTPBadPort", false, map[string]string{"USERTASKS_SMTP_PORT": "99999"}, "USERTASKS_SMTP_PORT must be a port number"},
		{"SMTPBadTLS", false, map[string]string{"USERTASKS_SMTP_TLS": "ssl"}, "USERTASKS_SMTP_TLS must be one of"},
		{"SMTPPlainOutsideDev", false, map[string]string{"USERTASKS_SMTP_TLS": "none"}, "dev mode only"},
	} {
		t.Run("Err"+c.name, func(t *testing.T) {
			v := vars(t, c.vars)
			if c.dev {
				v = devVars(t, c.vars)
			}
			_, err := loadConfig(env(v), true)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), testHookSecret) || strings.Contains(err.Error(), "short-secret") {
				t.Fatalf("the refusal repeats a secret: %v", err)
			}
		})
	}
	// Without USERTASKS_INVITATION_DISPATCHER the one configured dispatcher sends new
	// invitations (configured and then refused with invitations-unavailable was a trap); two
	// configured refuse the start with a one-line reason naming the variable that chooses.
	webhookVars := map[string]string{"USERTASKS_BASE_URL": "https://tasks.example.org",
		"USERTASKS_INVITATION_WEBHOOK_URL": "https://h.example/x", "USERTASKS_INVITATION_WEBHOOK_SECRET": testHookSecret}
	smtpVars := map[string]string{"USERTASKS_BASE_URL": "https://tasks.example.org",
		"USERTASKS_SMTP_HOST": "mail.example.org", "USERTASKS_SMTP_FROM": "tasks@example.org"}
	both := mergeVars(webhookVars, smtpVars)
	for _, c := range []struct {
		name string
		dev  bool
		vars map[string]string
		want string
	}{
		{"OnlyWebhook", false, webhookVars, invitations.DispatcherWebhook},
		{"OnlySMTP", false, smtpVars, invitations.DispatcherSMTP},
		{"OnlyWebhookInDevMode", true, webhookVars, invitations.DispatcherWebhook},
		{"ExplicitChoiceAmongTwo", false, mergeVars(both, map[string]string{"USERTASKS_INVITATION_DISPATCHER": "smtp"}), invitations.DispatcherSMTP},
	} {
		t.Run("OK_Implied"+c.name, func(t *testing.T) {
			v := vars(t, c.vars)
			if c.dev {
				v = devVars(t, c.vars)
			}
			cfg, err := loadConfig(env(v), true)
			if err != nil || cfg.Invitations.Dispatcher != c.want {
				t.Fatalf("dispatcher %q, %v; want %q", cfg.Invitations.Dispatcher, err, c.want)
			}
		})
	}
	t.Run("ErrSeveralWithoutAChoice", func(t *testing.T) {
		for _, dev := range []bool{false, true} {
			v := vars(t, both)
			if dev {
				v = devVars(t, both)
			}
			_, err := loadConfig(env(v), true)
			if err == nil || !strings.Contains(err.Error(), "USERTASKS_INVITATION_DISPATCHER") || strings.Contains(err.Error(), "\n") ||
				!strings.Contains(err.Error(), "smtp") || !strings.Contains(err.Error(), "webhook") {
				t.Fatalf("dev %v: %v, want one line naming both and the variable that chooses", dev, err)
			}
			if strings.Contains(err.Error(), testHookSecret) {
				t.Fatalf("the refusal repeats a secret: %v", err)
			}
		}
	})
	t.Run("PlainSMTPInDevMode", func(t *testing.T) {
		cfg, err := loadConfig(env(devVars(t, map[string]string{"USERTASKS_INVITATION_DISPATCHER": "smtp",
			"USERTASKS_SMTP_HOST": "localhost", "USERTASKS_SMTP_PORT": "1025", "USERTASKS_SMTP_FROM": "dev@localhost", "USERTASKS_SMTP_TLS": "none"})), true)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := cfg.invitationDispatchers(devMailbox(cfg)); err != nil || len(d) != 2 {
			t.Fatalf("dispatchers %v, %v", d, err)
		}
	})
}

// mergeVars is a copy of a with b's entries over it.
func mergeVars(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
