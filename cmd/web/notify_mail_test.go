package main

import (
	"context"
	"log/slog"
	"testing"

	"usertasks/testfactory"
)

// TestServeNotificationEmail: with SMTP configured, `web serve` builds the notification
// mailer and the digest worker; without it neither (the email channel is off). The
// unsubscribe link is served either way, so a mail sent before SMTP was turned off keeps a
// working link.
func TestServeNotificationEmail(t *testing.T) {
	for name, c := range map[string]struct {
		vars map[string]string
		mail bool
	}{
		"WithSMTP": {map[string]string{"USERTASKS_SMTP_HOST": "smtp.example.org", "USERTASKS_SMTP_FROM": "tasks@example.org",
			"USERTASKS_BASE_URL": "https://tasks.example.org"}, true},
		"WithoutSMTP": {nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := loadConfig(env(productionVarsWith(t, c.vars)), true)
			if err != nil {
				t.Fatal(err)
			}
			s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
			a, err := buildApp(context.Background(), cfg, &openedStore{Store: s, name: "sqlite", sql: s}, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer a.close()
			if (a.mailer != nil) != c.mail || (a.digest != nil) != c.mail {
				t.Fatalf("mailer %v, digest worker %v; want both %v", a.mailer != nil, a.digest != nil, c.mail)
			}
			if a.deps.Web == nil || a.deps.Web.Unsubscribe == nil {
				t.Fatal("the unsubscribe link is not served")
			}
		})
	}
}
