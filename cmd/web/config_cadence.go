package main

import "time"

// cadence is how often the background workers run, and how long reconciliation leaves a
// recently changed task alone.
type cadence struct {
	Dispatch       time.Duration // USERTASKS_DISPATCH_INTERVAL
	DispatchLease  time.Duration // USERTASKS_DISPATCH_LEASE
	DueSweep       time.Duration // USERTASKS_DUE_SWEEP_INTERVAL
	Reconcile      time.Duration // USERTASKS_RECONCILE_INTERVAL
	ReconcileQuiet time.Duration // USERTASKS_RECONCILE_QUIET_PERIOD
	// ReconcileDelay puts off the first reconciliation after the start
	// (USERTASKS_RECONCILE_DELAY); zero: a minute, or the interval when shorter.
	ReconcileDelay time.Duration
}

// minDispatchLease is the shortest lease of a claimed outbox row: a delivery must fit in it.
const minDispatchLease = time.Second

// minCadence keeps a mistyped unit ("1" for 1ns, "5ms" for 5m) from spinning a worker.
const minCadence = 100 * time.Millisecond

func defaultCadence() cadence {
	return cadence{Dispatch: time.Second, DispatchLease: 5 * time.Minute, DueSweep: time.Minute, Reconcile: 15 * time.Minute, ReconcileQuiet: 5 * time.Minute}
}
