package main

import (
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

func TestLoadConfigNotify(t *testing.T) {
	vars := productionVarsWith
	t.Run("Defaults", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		n := cfg.Notify
		if n.Interval != 5*time.Second || n.DueSoon != 24*time.Hour || n.WebhookURL != "" {
			t.Fatalf("notify %+v", n)
		}
		if got := cfg.Retention.policy(0).NotificationAge; got != models.DefaultNotificationRetention {
			t.Fatalf("notification retention %s, want %s", got, models.DefaultNotificationRetention)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_BASE_URL":                   "https://tasks.example.org",
			"USERTASKS_NOTIFY_INTERVAL":            "2s",
			"USERTASKS_NOTIFY_WEBHOOK_URL":         "https://relay.example.org/hook?team=ops",
			"USERTASKS_NOTIFY_WEBHOOK_SECRET":      testHookSecret,
			"USERTASKS_DUE_SOON":                   "4h",
			"USERTASKS_RETENTION_NOTIFICATION_AGE": "168h",
		})), true)
		if err != nil {
			t.Fatal(err)
		}
		if n := cfg.Notify; n.Interval != 2*time.Second || n.DueSoon != 4*time.Hour || n.WebhookSecret != testHookSecret {
			t.Fatalf("notify %+v", n)
		}
		if got := cfg.Retention.policy(0).NotificationAge; got != 168*time.Hour {
			t.Fatalf("notification retention %s", got)
		}
		if w, err := cfg.notifyWebhook(); err != nil || w == nil {
			t.Fatalf("webhook %v, %v", w, err)
		}
	})
	for name, tc := range map[string]struct {
		vars map[string]string
		want string
	}{
		"IntervalTooShort":   {map[string]string{"USERTASKS_NOTIFY_INTERVAL": "5ms"}, "USERTASKS_NOTIFY_INTERVAL"},
		"DueSoonNotDuration": {map[string]string{"USERTASKS_DUE_SOON": "1d"}, "USERTASKS_DUE_SOON"},
		"DueSoonTooLong":     {map[string]string{"USERTASKS_DUE_SOON": "9000h"}, "USERTASKS_DUE_SOON"},
		"RetentionTooShort":  {map[string]string{"USERTASKS_RETENTION_NOTIFICATION_AGE": "90s"}, "USERTASKS_RETENTION_NOTIFICATION_AGE"},
		"URLWithoutSecret":   {map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_NOTIFY_WEBHOOK_URL": "https://relay.example"}, "USERTASKS_NOTIFY_WEBHOOK_SECRET is required"},
		"SecretWithoutURL":   {map[string]string{"USERTASKS_NOTIFY_WEBHOOK_SECRET": testHookSecret}, "USERTASKS_NOTIFY_WEBHOOK_URL is required"},
		"ShortSecret":        {map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_NOTIFY_WEBHOOK_URL": "https://relay.example", "USERTASKS_NOTIFY_WEBHOOK_SECRET": "short"}, "at least 32"},
		"URLWithCredentials": {map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_NOTIFY_WEBHOOK_URL": "https://u:p@relay.example", "USERTASKS_NOTIFY_WEBHOOK_SECRET": testHookSecret}, "without credentials"},
		"NotHTTP":            {map[string]string{"USERTASKS_BASE_URL": "https://t.example", "USERTASKS_NOTIFY_WEBHOOK_URL": "ftp://relay.example", "USERTASKS_NOTIFY_WEBHOOK_SECRET": testHookSecret}, "absolute http(s) URL"},
		"WebhookWithoutBase": {map[string]string{"USERTASKS_NOTIFY_WEBHOOK_URL": "https://relay.example", "USERTASKS_NOTIFY_WEBHOOK_SECRET": testHookSecret}, "USERTASKS_BASE_URL is required"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := loadConfig(env(vars(t, tc.vars)), true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), testHookSecret) {
				t.Fatalf("the error repeats the secret: %v", err)
			}
		})
	}
}
