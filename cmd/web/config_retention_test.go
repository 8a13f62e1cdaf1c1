package main

import (
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

func TestLoadConfigRetention(t *testing.T) {
	vars := productionVarsWith

	t.Run("DefaultsKeepTerminalTasksAndLeaveTheWorkerOff", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		p := cfg.Retention.policy(0)
		if p.TerminalAge != 0 || p.InvitationAge != models.DefaultInvitationRetention || p.GuestSessionAge != models.DefaultGuestSessionRetention ||
			p.OutboxAge != models.DefaultOutboxRetention {
			t.Fatalf("policy %+v", p)
		}
		if o := workersOptions(cfg); o.PurgeEvery != 0 {
			t.Fatalf("purge worker on by default, every %s", o.PurgeEvery)
		}
	})
	t.Run("TerminalAgeTurnsTheWorkerOnHourly", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{"USERTASKS_RETENTION_TERMINAL_AGE": "2160h"})), true)
		if err != nil {
			t.Fatal(err)
		}
		o := workersOptions(cfg)
		if o.PurgeEvery != time.Hour || o.Purge.Policy.TerminalAge != 2160*time.Hour {
			t.Fatalf("every %s, policy %+v", o.PurgeEvery, o.Purge.Policy)
		}
	})
	t.Run("IntervalAloneRunsTheShorterPolicies", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{"USERTASKS_PURGE_INTERVAL": "15m", "USERTASKS_RETENTION_OUTBOX_AGE": "24h"})), true)
		if err != nil {
			t.Fatal(err)
		}
		o := workersOptions(cfg)
		if o.PurgeEvery != 15*time.Minute || o.Purge.Policy.TerminalAge != 0 || o.Purge.Policy.OutboxAge != 24*time.Hour {
			t.Fatalf("every %s, policy %+v", o.PurgeEvery, o.Purge.Policy)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for name, value := range map[string]string{
			"USERTASKS_RETENTION_TERMINAL_AGE":      "90",
			"USERTASKS_RETENTION_INVITATION_AGE":    "30m",
			"USERTASKS_RETENTION_GUEST_SESSION_AGE": "-1h",
			"USERTASKS_RETENTION_OUTBOX_AGE":        "7d",
			"USERTASKS_PURGE_INTERVAL":              "10s",
		} {
			_, err := loadConfig(env(vars(t, map[string]string{name: value})), true)
			if err == nil || !strings.HasPrefix(err.Error(), name) {
				t.Errorf("%s=%q: %v, want a refusal naming it", name, value, err)
			}
		}
	})
}
