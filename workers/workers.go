// Package workers runs the background jobs of SPEC 7: the resumption outbox dispatcher, the
// due sweep and reconciliation against the workflow runtime. Each is safe to run on many nodes.
package workers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"sync"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/workflow"
)

// Store is everything the background workers need from the store: a subset of store.Store.
type Store interface {
	DispatchStore
	SweepStore
	ReconcileStore
	RunStore
	DeliveryStore
	PurgeStore
	workflow.LoopbackStore
}

// NodeID names this process on leases: the host name and a random suffix, so two processes on
// one host never share a lease.
func NodeID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "node"
	}
	if len(host) > 100 {
		host = host[:100]
	}
	var b [6]byte
	rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}

// Options configure the background workers of SPEC 7; zero values take its defaults.
type Options struct {
	// Owner names this node on every lease. Default NodeID().
	Owner string
	// DispatchEvery is the resumption outbox's poll interval. Default 1 s. A full batch is
	// followed by the next one at once.
	DispatchEvery time.Duration
	// SweepEvery is the due sweep's interval. Default 1 min; the first sweep runs at start.
	SweepEvery time.Duration
	// ReconcileEvery is the reconciliation's interval. Default 15 min.
	ReconcileEvery time.Duration
	// ReconcileAfter delays the first reconciliation after start, so a fleet restarting
	// together does not reconcile at once. Default 1 min, or ReconcileEvery when shorter.
	ReconcileAfter time.Duration
	// ShutdownGrace is how long the runs in progress may go on after the context ends before
	// they are cancelled (their rows and leases are given back either way). Default 5 s.
	ShutdownGrace time.Duration

	// DeliverEvery is the invitation delivery outbox's poll interval (and its expiry sweep's).
	// Default 5 s; a kick or a full batch runs it sooner.
	DeliverEvery time.Duration
	// Dispatchers are the invitation dispatchers by name (invitations.DispatcherSMTP, ...);
	// none: this node runs no delivery worker.
	Dispatchers map[string]invitations.Dispatcher

	Dispatcher DispatcherOptions
	Deliveries DeliveryOptions
	Sweep      SweepOptions
	Reconcile  ReconcilerOptions
	// Notify delivers notifications (SPEC 10.3) every NotifyEvery (default 5 s), soon after a
	// kick (KickNotifications) and at once after a full batch; nil runs no delivery here.
	Notify      *notify.Deliverer
	NotifyEvery time.Duration
	// DueSoon writes the due-soon notifications on the due sweep's interval; nil: none.
	DueSoon *notify.DueSoon

	// PurgeEvery is the retention purge's interval; zero leaves the purge off (SPEC 7).
	PurgeEvery time.Duration
	Purge      PurgeOptions
	// Projector recreates missing projections during reconciliation; nil only logs them.
	Projector BookmarkProjector
	Logger    *slog.Logger
	// Observer, when set, hears every run of every worker (observe.go).
	Observer RunObserver
}

// Workers runs the resumption outbox, the due sweep and the reconciliation on their intervals.
type Workers struct {
	Dispatcher *Dispatcher
	Sweeper    *DueSweeper
	Reconciler *Reconciler
	// Deliverer sends invitations; nil without Dispatchers.
	Deliverer *Deliverer
	Purger    *Purger // nil while the purge is off

	o           Options
	log         *slog.Logger
	kick        chan struct{}
	deliverKick chan struct{}
	notifyKick  chan struct{}
	runs        RunStore
}

// New builds the three workers on store, delivering to runtime (an HTTPRuntime, or the
// Loopback in dev mode). Owner and Logger are handed down to each worker unless its own
// options set them. The store tells its change notifier about what the workers commit.
func New(store Store, runtime workflow.RuntimeClient, o Options) *Workers {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.DispatchEvery <= 0 {
		o.DispatchEvery = time.Second
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = time.Minute
	}
	if o.ReconcileEvery <= 0 {
		o.ReconcileEvery = 15 * time.Minute
	}
	if o.ReconcileAfter <= 0 {
		o.ReconcileAfter = min(time.Minute, o.ReconcileEvery)
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 5 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	inherit := func(owner *string, l **slog.Logger) {
		if *owner == "" {
			*owner = o.Owner
		}
		if *l == nil {
			*l = log
		}
	}
	inherit(&o.Dispatcher.Owner, &o.Dispatcher.Logger)
	inherit(&o.Sweep.Owner, &o.Sweep.Logger)
	inherit(&o.Reconcile.Owner, &o.Reconcile.Logger)
	inherit(&o.Deliveries.Owner, &o.Deliveries.Logger)
	if o.DeliverEvery <= 0 {
		o.DeliverEvery = 5 * time.Second
	}
	if o.NotifyEvery <= 0 {
		o.NotifyEvery = 5 * time.Second
	}
	inherit(&o.Purge.Owner, &o.Purge.Logger)
	var purger *Purger
	if o.PurgeEvery > 0 {
		purger = NewPurger(store, o.Purge)
	}
	var deliverer *Deliverer
	if len(o.Dispatchers) > 0 {
		deliverer = NewDeliverer(store, o.Dispatchers, o.Deliveries)
	}
	return &Workers{
		Deliverer:   deliverer,
		Purger:      purger,
		deliverKick: make(chan struct{}, 1),
		notifyKick:  make(chan struct{}, 1),
		Dispatcher:  NewDispatcher(store, runtime, o.Dispatcher),
		Sweeper:     NewDueSweeper(store, sweepOptions(o)),
		Reconciler:  NewReconciler(store, runtime, o.Projector, o.Reconcile),
		o:           o,
		log:         log,
		kick:        make(chan struct{}, 1),
		runs:        store,
	}
}

// Kick wakes the dispatcher now (a transition was just committed on this node). It never blocks.
func (w *Workers) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// KickDeliveries wakes the delivery worker now (an invitation was just issued on this node;
// store.Changes.NotifyDeliveries). It never blocks.
func (w *Workers) KickDeliveries() {
	select {
	case w.deliverKick <- struct{}{}:
	default:
	}
}

// Run runs the workers until ctx ends, then lets the runs in progress finish for up to
// ShutdownGrace, cancels what is left, and returns once every row lease and named lease this
// node held has been given back.
func (w *Workers) Run(ctx context.Context) error {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(w.o.ShutdownGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-work.Done():
		}
	})
	defer stop()

	var wg sync.WaitGroup
	wg.Go(func() { w.dispatchLoop(ctx, work) })
	if w.Deliverer != nil {
		wg.Go(func() { w.deliveryLoop(ctx, work) })
	}
	if w.o.Notify != nil {
		wg.Go(func() { w.notifyLoop(ctx, work) })
	}
	if w.o.DueSoon != nil {
		wg.Go(func() { w.dueSoonLoop(ctx, work) })
	}
	wg.Go(func() {
		rec := newRunRecorder(w.runs, w.log)
		w.every(ctx, 0, w.o.SweepEvery, "due-sweep", func() error {
			start := time.Now()
			res, err := w.Sweeper.RunOnce(work)
			w.observeRun(models.WorkerDueSweep, res.Busy, err, time.Since(start))
			rec.record(work, sweepRuns(res, err, time.Since(start)))
			return err
		})
	})
	wg.Go(func() {
		rec := newRunRecorder(w.runs, w.log)
		w.every(ctx, w.o.ReconcileAfter, w.o.ReconcileEvery, "reconciliation", func() error {
			start := time.Now()
			run, err := w.Reconciler.RunOnce(work)
			w.observeRun(models.WorkerReconciliation, allSkipped(run), err, time.Since(start))
			rec.record(work, reconcileRuns(run, err, time.Since(start)))
			return err
		})
	})
	if w.Purger != nil {
		wg.Go(func() {
			w.every(ctx, w.o.PurgeEvery, w.o.PurgeEvery, "purge", func() error {
				_, err := w.Purger.RunOnce(work, "")
				return err
			})
		})
	}
	wg.Wait()
	return nil
}

// dispatchLoop delivers the outbox: once every row of a full batch has started, the next
// batch is claimed at once, while those deliveries run. Each batch's run is observed when its
// last delivery has ended; the window of counts is recorded per tenant as deliveries end.
func (w *Workers) dispatchLoop(ctx, work context.Context) {
	report := failureReporter{log: w.log, worker: "resumption-outbox"}
	rec := newRunRecorder(w.runs, w.log)
	var mu sync.Mutex // window: deliveries end on their own goroutines
	var window dispatchWindow
	take := func(force bool) []models.WorkerRun {
		mu.Lock()
		defer mu.Unlock()
		return window.take(time.Now(), DispatchRecordEvery, force)
	}
	var observers sync.WaitGroup
	defer func() {
		w.Dispatcher.drain()
		observers.Wait()
		rec.record(work, take(true))
	}()
	done := func(r models.Resumption, one DispatchCounts) {
		mu.Lock()
		defer mu.Unlock()
		window.add(DispatchResult{Tenants: map[string]DispatchCounts{r.Tenant: one}}, nil, time.Now())
	}
	poll(ctx, 0, w.kick, func(bool) (time.Duration, bool) {
		start := time.Now()
		b, err := w.Dispatcher.start(work, done)
		report.outcome(err)
		switch {
		case err != nil:
			w.observeRun(models.WorkerDispatcher, false, err, time.Since(start))
			mu.Lock()
			window.add(DispatchResult{}, err, time.Now())
			mu.Unlock()
		case b.claimed == 0:
			w.observeRun(models.WorkerDispatcher, false, nil, time.Since(b.started))
		default:
			observers.Go(func() {
				b.wait()
				w.observeRun(models.WorkerDispatcher, false, nil, time.Since(b.started))
			})
		}
		rec.record(work, take(false))
		if err == nil && b.full() {
			return 0, true
		}
		return w.o.DispatchEvery, true
	})
}

// every runs fn after first, then every interval, until ctx ends.
func (w *Workers) every(ctx context.Context, first, interval time.Duration, name string, fn func() error) {
	report := failureReporter{log: w.log, worker: name}
	poll(ctx, first, nil, func(bool) (time.Duration, bool) {
		report.outcome(fn())
		return interval, true
	})
}

// poll runs step each time its timer, first set to first, fires or kick (nil: none) arrives,
// until ctx ends. step learns whether the timer fired and answers when it fires next; set
// false leaves the timer as it runs, so that a kick does not put off the next timed run.
func poll(ctx context.Context, first time.Duration, kick <-chan struct{}, step func(timed bool) (next time.Duration, set bool)) {
	timer := time.NewTimer(first)
	defer timer.Stop()
	for {
		timed := false
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
			timed = true
		case <-kick:
		}
		if next, set := step(timed); set {
			timer.Reset(next)
		}
	}
}

// failureReporter logs a worker's failures without flooding the log: the first failure, then
// at most one a minute while they go on, and the recovery.
type failureReporter struct {
	log     *slog.Logger
	worker  string
	failing bool
	last    time.Time
}

func (f *failureReporter) outcome(err error) {
	switch {
	case err == nil && f.failing:
		f.failing = false
		f.log.Info("worker recovered", "worker", f.worker)
	case err != nil && (!f.failing || time.Since(f.last) >= time.Minute):
		f.failing, f.last = true, time.Now()
		// Store and runtime errors name no payload; RuntimeErrors carry only their code.
		f.log.Warn("worker run failed", "worker", f.worker, "code", workflow.RuntimeErrorCode(err), "error", err.Error())
	}
}
