package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigWorkerCadence(t *testing.T) {
	vars := productionVarsWith

	t.Run("Defaults", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, nil)), true)
		if err != nil {
			t.Fatal(err)
		}
		want := cadence{Dispatch: time.Second, DispatchLease: 5 * time.Minute, DueSweep: time.Minute, Reconcile: 15 * time.Minute, ReconcileQuiet: 5 * time.Minute}
		if cfg.Cadence != want {
			t.Fatalf("cadence %+v, want %+v", cfg.Cadence, want)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg, err := loadConfig(env(vars(t, map[string]string{
			"USERTASKS_DISPATCH_INTERVAL":      "100ms",
			"USERTASKS_DISPATCH_LEASE":         "2s",
			"USERTASKS_DUE_SWEEP_INTERVAL":     "30s",
			"USERTASKS_RECONCILE_INTERVAL":     "1h30m",
			"USERTASKS_RECONCILE_QUIET_PERIOD": "2m",
			"USERTASKS_RECONCILE_DELAY":        "10s",
		})), true)
		if err != nil {
			t.Fatal(err)
		}
		want := cadence{Dispatch: 100 * time.Millisecond, DispatchLease: 2 * time.Second, DueSweep: 30 * time.Second, Reconcile: 90 * time.Minute,
			ReconcileQuiet: 2 * time.Minute, ReconcileDelay: 10 * time.Second}
		if cfg.Cadence != want {
			t.Fatalf("cadence %+v, want %+v", cfg.Cadence, want)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for _, c := range []struct{ name, value, want string }{
			{"USERTASKS_DUE_SWEEP_INTERVAL", "5x", `USERTASKS_DUE_SWEEP_INTERVAL="5x": not a duration`},
			{"USERTASKS_DISPATCH_INTERVAL", "1", `USERTASKS_DISPATCH_INTERVAL="1": not a duration`},
			{"USERTASKS_RECONCILE_INTERVAL", "15 m", `USERTASKS_RECONCILE_INTERVAL="15 m": not a duration`},
			{"USERTASKS_RECONCILE_INTERVAL", "99999999999h", `USERTASKS_RECONCILE_INTERVAL="99999999999h": not a duration`},
			{"USERTASKS_RECONCILE_QUIET_PERIOD", "\x1b[31m", `USERTASKS_RECONCILE_QUIET_PERIOD="\x1b[31m": not a duration`},
		} {
			_, err := loadConfig(env(vars(t, map[string]string{c.name: c.value})), true)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s=%q: %v, want %q", c.name, c.value, err, c.want)
			}
		}
	})
	t.Run("ErrHugeValueIsNotEchoed", func(t *testing.T) {
		_, err := loadConfig(env(vars(t, map[string]string{"USERTASKS_RECONCILE_INTERVAL": strings.Repeat("9", 1<<20) + "s"})), true)
		if err == nil || !strings.HasPrefix(err.Error(), `USERTASKS_RECONCILE_INTERVAL="999`) || !strings.HasSuffix(err.Error(), "not a duration") || len(err.Error()) > 120 {
			t.Fatalf("got %.200v, want a short refusal", err)
		}
	})
	t.Run("ErrTooSmall", func(t *testing.T) {
		for _, c := range []struct{ name, value string }{
			{"USERTASKS_DISPATCH_INTERVAL", "99ms"},
			{"USERTASKS_DUE_SWEEP_INTERVAL", "0"},
			{"USERTASKS_RECONCILE_INTERVAL", "-15m"},
			{"USERTASKS_RECONCILE_QUIET_PERIOD", "1ns"},
			{"USERTASKS_RECONCILE_DELAY", "0"},
		} {
			_, err := loadConfig(env(vars(t, map[string]string{c.name: c.value})), true)
			if want := c.name + "=\"" + c.value + "\": must be at least 100ms"; err == nil || err.Error() != want {
				t.Errorf("%s=%q: %v, want %q", c.name, c.value, err, want)
			}
		}
	})
	t.Run("ErrLeaseTooShort", func(t *testing.T) {
		_, err := loadConfig(env(vars(t, map[string]string{"USERTASKS_DISPATCH_LEASE": "999ms"})), true)
		if want := `USERTASKS_DISPATCH_LEASE="999ms": must be at least 1s`; err == nil || err.Error() != want {
			t.Fatalf("got %v, want %q", err, want)
		}
	})
	t.Run("ServeRefusesWithOneLine", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"serve", "--migrate"}, env(vars(t, map[string]string{"USERTASKS_DUE_SWEEP_INTERVAL": "5x"})), &out, &errOut)
		if got := strings.TrimSpace(errOut.String()); code != 1 || got != `web: USERTASKS_DUE_SWEEP_INTERVAL="5x": not a duration` {
			t.Fatalf("exit %d, stderr %q", code, got)
		}
	})
}

// The cadence is handed to the workers as configured.
func TestWorkersOptionsTakeTheCadence(t *testing.T) {
	c := cadence{Dispatch: 150 * time.Millisecond, DueSweep: 2 * time.Second, Reconcile: 3 * time.Minute, ReconcileQuiet: 40 * time.Second}
	o := workersOptions(config{Cadence: c})
	if o.DispatchEvery != c.Dispatch || o.SweepEvery != c.DueSweep || o.ReconcileEvery != c.Reconcile || o.Reconcile.SkipTouchedWithin != c.ReconcileQuiet {
		t.Fatalf("workers options %+v, want the cadence %+v", o, c)
	}
}
