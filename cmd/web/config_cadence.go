package main

import (
	"fmt"
	"time"
)

// cadence is how often the background workers run, and how long reconciliation leaves a
// recently changed task alone.
type cadence struct {
	Dispatch       time.Duration // USERTASKS_DISPATCH_INTERVAL
	DueSweep       time.Duration // USERTASKS_DUE_SWEEP_INTERVAL
	Reconcile      time.Duration // USERTASKS_RECONCILE_INTERVAL
	ReconcileQuiet time.Duration // USERTASKS_RECONCILE_QUIET_PERIOD
}

// minCadence keeps a mistyped unit ("1" for 1ns, "5ms" for 5m) from spinning a worker.
const minCadence = 100 * time.Millisecond

// loadCadence reads the four worker durations; unset ones take their defaults.
func loadCadence(getenv func(string) string) (cadence, error) {
	c := cadence{Dispatch: time.Second, DueSweep: time.Minute, Reconcile: 15 * time.Minute, ReconcileQuiet: 5 * time.Minute}
	for _, v := range []struct {
		name string
		into *time.Duration
	}{
		{"USERTASKS_DISPATCH_INTERVAL", &c.Dispatch},
		{"USERTASKS_DUE_SWEEP_INTERVAL", &c.DueSweep},
		{"USERTASKS_RECONCILE_INTERVAL", &c.Reconcile},
		{"USERTASKS_RECONCILE_QUIET_PERIOD", &c.ReconcileQuiet},
	} {
		raw := getenv(v.name)
		if raw == "" {
			continue
		}
		d, err := time.ParseDuration(raw)
		switch {
		case err != nil:
			return c, fmt.Errorf("%s=%s: not a duration", v.name, quoteShort(raw))
		case d < minCadence:
			return c, fmt.Errorf("%s=%s: must be at least %s", v.name, quoteShort(raw), minCadence)
		}
		*v.into = d
	}
	return c, nil
}

// quoteShort quotes a configured value for an error message, cut to a readable length.
func quoteShort(v string) string {
	const limit = 32
	if len(v) > limit {
		return fmt.Sprintf("%q…", v[:limit])
	}
	return fmt.Sprintf("%q", v)
}
