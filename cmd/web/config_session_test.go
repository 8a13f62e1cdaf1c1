package main

import (
	"strings"
	"testing"
	"time"
)

func TestLoadConfigSessionTimes(t *testing.T) {
	vars := productionVarsWith
	t.Run("Defaults", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		want := sessionTimes{Lifetime: 8 * time.Hour, Idle: 30 * time.Minute, Refresh: 5 * time.Minute}
		if cfg.Session != want {
			t.Fatalf("session times %+v, want %+v", cfg.Session, want)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_SESSION_LIFETIME": "12h", "USERTASKS_SESSION_IDLE_TIMEOUT": "2m", "USERTASKS_SESSION_REFRESH_INTERVAL": "1m",
		})), true)
		if err != nil {
			t.Fatal(err)
		}
		want := sessionTimes{Lifetime: 12 * time.Hour, Idle: 2 * time.Minute, Refresh: time.Minute}
		if cfg.Session != want {
			t.Fatalf("session times %+v, want %+v", cfg.Session, want)
		}
	})
	for _, c := range []struct{ name, value, want string }{
		{"USERTASKS_SESSION_LIFETIME", "8", `USERTASKS_SESSION_LIFETIME="8" is not a duration of at least 5m0s (e.g. 30m, 8h)`},
		{"USERTASKS_SESSION_LIFETIME", "1m", `USERTASKS_SESSION_LIFETIME="1m" is not a duration of at least 5m0s (e.g. 30m, 8h)`},
		{"USERTASKS_SESSION_LIFETIME", "720h", `USERTASKS_SESSION_LIFETIME (720h0m0s) must not exceed 168h0m0s`},
		{"USERTASKS_SESSION_IDLE_TIMEOUT", "30s", `USERTASKS_SESSION_IDLE_TIMEOUT="30s" is not a duration of at least 2m0s (e.g. 30m, 8h)`},
		{"USERTASKS_SESSION_IDLE_TIMEOUT", "9h", `USERTASKS_SESSION_IDLE_TIMEOUT (9h0m0s) must not exceed USERTASKS_SESSION_LIFETIME (8h0m0s)`},
		{"USERTASKS_SESSION_REFRESH_INTERVAL", "5 m", `USERTASKS_SESSION_REFRESH_INTERVAL="5 m" is not a duration of at least 1m0s (e.g. 30m, 8h)`},
	} {
		t.Run("Err"+strings.TrimPrefix(c.name, "USERTASKS_SESSION_")+"_"+c.value, func(t *testing.T) {
			_, err := loadConfig(env(vars(t, map[string]string{c.name: c.value})), true)
			if err == nil || err.Error() != c.want {
				t.Fatalf("%s=%q: %v, want %q", c.name, c.value, err, c.want)
			}
		})
	}
}
