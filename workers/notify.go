package workers

import (
	"context"
	"time"

	"usertasks/models"
	"usertasks/notify"
)

// notifyKickGap is the shortest gap between two runs of the notification delivery that a
// kick starts: every commit kicks it (the rows are written in the change's transaction), so a
// burst of commits costs at most one claim per gap, and a lone change is shown within it.
const notifyKickGap = 250 * time.Millisecond

// KickNotifications wakes the notification delivery now (a change was just committed on this
// node and may have written notification rows). It never blocks.
func (w *Workers) KickNotifications() {
	if w.notifyKick == nil {
		return
	}
	select {
	case w.notifyKick <- struct{}{}:
	default:
	}
}

// notifyLoop delivers notifications: on its interval, soon after a kick, and again at once
// after a full batch or an expansion (the members' rows are due now). It has its own batch
// and leases, apart from the resumption outbox's, so a storm never starves a resumption.
// Runs are recorded like the invitation delivery's: per tenant, in windows of at least
// DispatchRecordEvery that did something.
func (w *Workers) notifyLoop(ctx, work context.Context) {
	d := w.o.Notify
	report := failureReporter{log: w.log, worker: string(models.WorkerNotify)}
	rec := newRunRecorder(w.runs, w.log)
	var window notifyWindow
	defer func() { rec.record(work, window.take(time.Now(), DispatchRecordEvery, true)) }()
	var last time.Time
	poll(ctx, 0, w.notifyKick, func(timed bool) (time.Duration, bool) {
		if since := time.Since(last); !timed && since < notifyKickGap {
			return notifyKickGap - since, true
		}
		start := time.Now()
		last = start
		res, err := d.RunOnce(work)
		w.observeRun(models.WorkerNotify, false, err, time.Since(start))
		report.outcome(err)
		window.add(res, err, time.Now())
		rec.record(work, window.take(time.Now(), DispatchRecordEvery, false))
		if err == nil && (res.Claimed >= d.BatchSize() || res.Expanded > 0) {
			return 0, true
		}
		return w.o.NotifyEvery, true
	})
}

// dueSoonLoop writes the due-soon notifications on the due sweep's interval.
func (w *Workers) dueSoonLoop(ctx, work context.Context) {
	rec := newRunRecorder(w.runs, w.log)
	var window notifyWindow
	defer func() { rec.record(work, window.take(time.Now(), DispatchRecordEvery, true)) }()
	w.every(ctx, 0, w.o.SweepEvery, "due-soon", func() error {
		start := time.Now()
		res, err := w.o.DueSoon.RunOnce(work)
		w.observeRun(models.WorkerNotify, false, err, time.Since(start))
		window.add(res, err, time.Now())
		rec.record(work, window.take(time.Now(), DispatchRecordEvery, false))
		if res.DueSoon > 0 {
			w.KickNotifications()
		}
		return err
	})
}

// notifyTally is notify.Counts as a recorded run's tally.
type notifyTally notify.Counts

func (c *notifyTally) add(o notifyTally) { (*notify.Counts)(c).Add(notify.Counts(o)) }

func (c notifyTally) recorded() (models.Worker, map[string]int) {
	return models.WorkerNotify, notify.Counts(c).Map()
}

// notifyWindow aggregates the notification workers' runs between two recordings.
type notifyWindow struct {
	runWindow[notifyTally, *notifyTally]
}

// add folds one run into the window; an idle run leaves it untouched.
func (w *notifyWindow) add(res notify.Result, err error, now time.Time) {
	if !res.Busy() && err == nil {
		return
	}
	tenants := make(map[string]notifyTally, len(res.Tenants))
	for tenant, c := range res.Tenants {
		tenants[tenant] = notifyTally(c)
	}
	w.fold(tenants, err, now)
}
