package workers

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/workflow"
)

// DispatchStore is what the Dispatcher needs from the store: the outbox's claims and answers,
// and the task reads and writes of a delivery.
type DispatchStore interface {
	store.Outbox
	ReleaseResumption(ctx context.Context, r models.Resumption) error
	SettleResumption(ctx context.Context, r models.Resumption) error
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	Operation(ctx context.Context, tenant, taskID, opID string) (models.Operation, error)
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
}

// Backoff spaces the retries of a failing delivery: the ceiling doubles from Min with every
// attempt up to Max, and each delay is drawn uniformly between Min and the ceiling (full
// jitter, floored at Min so a retry never comes at once).
type Backoff struct {
	Min, Max time.Duration
	// Jitter returns a number in [0, n); default math/rand/v2.Int64N. Tests pin it.
	Jitter func(n int64) int64
}

// DefaultBackoff is SPEC 7's: 1 s → 1 h.
var DefaultBackoff = Backoff{Min: time.Second, Max: time.Hour}

// Ceiling is the longest delay after the attempt-th failure (1-based).
func (b Backoff) Ceiling(attempt int) time.Duration {
	b = b.withDefaults()
	c := b.Min
	for i := 1; i < attempt && c < b.Max; i++ {
		c *= 2
	}
	return min(c, b.Max)
}

// Delay draws the delay after the attempt-th failure.
func (b Backoff) Delay(attempt int) time.Duration {
	b = b.withDefaults()
	spread := int64(b.Ceiling(attempt)-b.Min) + 1
	return b.Min + time.Duration(b.Jitter(spread))
}

func (b Backoff) withDefaults() Backoff {
	if b.Min <= 0 {
		b.Min = DefaultBackoff.Min
	}
	if b.Max < b.Min {
		b.Max = max(DefaultBackoff.Max, b.Min)
	}
	if b.Jitter == nil {
		b.Jitter = rand.Int64N
	}
	return b
}

// DispatcherOptions tune a Dispatcher; zero values take SPEC 7's defaults.
type DispatcherOptions struct {
	// Owner names this node on the leases it takes. Default NodeID().
	Owner string
	// BatchSize is how many rows one run claims, and the most this node holds claimed and not
	// yet delivered: the running loop claims what the deliveries in flight leave. Default 50.
	BatchSize int
	// LeaseFor is how long a claimed row stays with this node; it must outlast a batch's
	// deliveries (BatchSize / Parallel rounds). Default 5 min.
	LeaseFor time.Duration
	// Parallel is how many deliveries run at once, across batches. Default 8.
	Parallel int
	// Backoff spaces retries. Default 1 s → 1 h with full jitter.
	Backoff Backoff
	// FailureThreshold is the attempt count from which the task gets the advisory health
	// resume-delivery-failing. Default 20.
	FailureThreshold int
	Logger           *slog.Logger
}

// Dispatcher delivers the resumption outbox (SPEC 5.2, 7): it claims due rows with fenced
// leases, builds each stimulus from the task and its accepted operation, delivers it, and
// acknowledges it or schedules a retry. Delivery is at least once; the runtime deduplicates on
// the stimulus's idempotency key. It is safe to run on many nodes.
type Dispatcher struct {
	store   DispatchStore
	runtime workflow.RuntimeClient
	o       DispatcherOptions
	log     *slog.Logger

	// slots holds a token per delivery in flight, across batches: at most Parallel.
	slots chan struct{}
	// held counts the rows claimed here whose delivery has not ended: at most BatchSize, so
	// a row waits behind no more than a batch (the lease sizing rule of LeaseFor).
	mu       sync.Mutex
	freed    *sync.Cond
	held     int
	inflight sync.WaitGroup
}

// NewDispatcher builds a Dispatcher delivering to runtime.
func NewDispatcher(store DispatchStore, runtime workflow.RuntimeClient, o DispatcherOptions) *Dispatcher {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 50
	}
	if o.LeaseFor <= 0 {
		o.LeaseFor = 5 * time.Minute
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	o.Backoff = o.Backoff.withDefaults()
	if o.FailureThreshold <= 0 {
		o.FailureThreshold = 20
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	d := &Dispatcher{store: store, runtime: runtime, o: o, log: log.With("worker", "resumption-outbox"),
		slots: make(chan struct{}, o.Parallel)}
	d.freed = sync.NewCond(&d.mu)
	return d
}

// DispatchCounts count what deliveries did.
type DispatchCounts struct {
	Claimed   int // rows leased to this node
	Delivered int // acknowledged by the runtime
	Failed    int // scheduled for a retry
	Skipped   int // the task was closed or gone, or the node is shutting down
}

func (c *DispatchCounts) add(o DispatchCounts) {
	c.Claimed += o.Claimed
	c.Delivered += o.Delivered
	c.Failed += o.Failed
	c.Skipped += o.Skipped
}

// DispatchResult counts what one run did, in all and per tenant.
type DispatchResult struct {
	DispatchCounts
	// Tenants holds each tenant's share of the counts.
	Tenants map[string]DispatchCounts
}

// count adds one row's counts to the run's, in all and for its tenant.
func (r *DispatchResult) count(tenant string, one DispatchCounts) {
	if r.Tenants == nil {
		r.Tenants = map[string]DispatchCounts{}
	}
	r.add(one)
	c := r.Tenants[tenant]
	c.add(one)
	r.Tenants[tenant] = c
}

// RunOnce claims one batch and delivers it, returning once every delivery has ended.
// Deliveries whose context ends (shutdown) give their rows back without counting an attempt.
func (d *Dispatcher) RunOnce(ctx context.Context) (DispatchResult, error) {
	var mu sync.Mutex
	res := DispatchResult{Tenants: map[string]DispatchCounts{}}
	b, err := d.start(ctx, func(r models.Resumption, one DispatchCounts) {
		mu.Lock()
		defer mu.Unlock()
		res.count(r.Tenant, one)
	})
	if err != nil {
		return DispatchResult{}, err
	}
	b.wait()
	mu.Lock()
	defer mu.Unlock()
	return res, nil
}

// batch is one claim's rows, their deliveries started.
type batch struct {
	claimed, limit int
	started        time.Time
	ended          sync.WaitGroup
}

// full reports whether the claim took all it asked for: more rows may be due.
func (b *batch) full() bool { return b.claimed > 0 && b.claimed >= b.limit }

// wait returns once every delivery of the batch has ended.
func (b *batch) wait() { b.ended.Wait() }

// start claims a batch and starts its deliveries as slots free up, sharing the Parallel slots
// with the deliveries of earlier batches still in flight; it returns once every row has
// started, so the caller can claim the next batch while these run (issue 27: a batch no longer
// waits for the slowest delivery of the one before). done hears each row once with
// Claimed, then once with its outcome, from any goroutine.
//
// It claims only what the rows still in flight leave of BatchSize: a row then has at most
// BatchSize-1 rows ahead of it on Parallel slots, so its delivery ends within
// BatchSize/Parallel (rounded up) delivery times of its claim, as when each batch waited for
// the one before: LeaseFor is sized as it was.
func (d *Dispatcher) start(ctx context.Context, done func(models.Resumption, DispatchCounts)) (*batch, error) {
	d.mu.Lock()
	for d.held >= d.o.BatchSize {
		d.freed.Wait() // only with BatchSize <= Parallel; deliveries always end
	}
	limit := d.o.BatchSize - d.held
	d.held += limit
	d.mu.Unlock()
	b := &batch{limit: limit, started: time.Now()}
	rows, err := d.store.ClaimResumptions(ctx, d.o.Owner, limit, d.o.LeaseFor)
	d.release(limit - len(rows))
	if err != nil {
		return nil, err
	}
	b.claimed = len(rows)
	for _, r := range rows {
		done(r, DispatchCounts{Claimed: 1})
	}
	for _, r := range rows {
		d.slots <- struct{}{}
		b.ended.Add(1)
		d.inflight.Add(1)
		go func() {
			defer func() {
				<-d.slots
				d.release(1)
				b.ended.Done()
				d.inflight.Done()
			}()
			var one DispatchCounts
			switch d.deliver(ctx, r) {
			case outcomeDelivered:
				one.Delivered = 1
			case outcomeFailed:
				one.Failed = 1
			default:
				one.Skipped = 1
			}
			done(r, one)
		}()
	}
	return b, nil
}

// release gives back n rows of the BatchSize this node may hold.
func (d *Dispatcher) release(n int) {
	if n <= 0 {
		return
	}
	d.mu.Lock()
	d.held -= n
	d.mu.Unlock()
	d.freed.Broadcast()
}

// drain waits for every delivery started here to end.
func (d *Dispatcher) drain() { d.inflight.Wait() }

type dispatchOutcome int

const (
	outcomeDelivered dispatchOutcome = iota + 1
	outcomeFailed
	outcomeSkipped
)

// deliver handles one claimed row.
func (d *Dispatcher) deliver(ctx context.Context, r models.Resumption) dispatchOutcome {
	log := d.log.With("tenant", r.Tenant, "taskId", r.TaskID, "operationId", r.OperationID)
	book, cancel := bookkeeping(ctx)
	defer cancel()

	task, err := d.store.Get(ctx, r.Tenant, r.TaskID)
	switch {
	case errors.Is(err, models.ErrNotFound):
		log.Info("resumption skipped: the task is gone")
		return outcomeSkipped // the row went with the task
	case err != nil:
		return d.retry(ctx, book, log, r, task, err)
	case task.Status.IsTerminal():
		// Finalized meanwhile (or a stale requeue): nothing more to resume.
		if err := d.store.SettleResumption(book, r); err != nil && !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("settle resumption", "code", workflow.RuntimeErrorCode(err))
		}
		return outcomeSkipped
	}
	op, err := d.store.Operation(ctx, r.Tenant, r.TaskID, r.OperationID)
	if err != nil {
		return d.retry(ctx, book, log, r, task, err)
	}
	stimulus, err := workflow.NewStimulus(task, op)
	if err != nil {
		return d.retry(ctx, book, log, r, task, err)
	}
	if err := d.runtime.Deliver(ctx, stimulus); err != nil {
		return d.retry(ctx, book, log, r, task, err)
	}
	if !settlesOnDelivery(d.runtime) {
		switch err := d.store.AckResumption(book, r); {
		case errors.Is(err, models.ErrLeaseLost):
			// The lease expired, or the runtime's bookmark removal settled the row first.
			// Either way the runtime has the stimulus.
			log.Debug("resumption delivered; its lease was gone at acknowledgement")
		case err != nil:
			log.Warn("resumption delivered but not acknowledged; it will be delivered again", "code", workflow.RuntimeErrorCode(err))
		}
	}
	if task.Health.Code == models.HealthResumeDeliveryFailing {
		if err := d.store.ClearHealth(book, r.Tenant, r.TaskID, models.HealthResumeDeliveryFailing); err != nil {
			log.Warn("clear health", "code", workflow.RuntimeErrorCode(err))
		}
	}
	log.Debug("resumption delivered", "attempt", r.Attempts+1)
	return outcomeDelivered
}

// settlesOnDelivery reports whether runtime finalizes the task inside Deliver (the loopback),
// which settles the row: its acknowledgement would be a write transaction that always finds
// the lease gone (issue 27: one of the five transactions of a completion through to Completed).
func settlesOnDelivery(runtime workflow.RuntimeClient) bool {
	s, ok := runtime.(interface{ SettlesOnDelivery() bool })
	return ok && s.SettlesOnDelivery()
}

// retry records a failed attempt and schedules the next one, or gives the row back untouched
// when the node is shutting down.
func (d *Dispatcher) retry(ctx, book context.Context, log *slog.Logger, r models.Resumption, task models.Task, cause error) dispatchOutcome {
	if ctx.Err() != nil {
		if err := d.store.ReleaseResumption(book, r); err != nil && !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("release resumption", "code", workflow.RuntimeErrorCode(err))
		}
		return outcomeSkipped
	}
	code := workflow.RuntimeErrorCode(cause)
	attempt := r.Attempts + 1
	delay := d.o.Backoff.Delay(attempt)
	if _, err := d.store.RetryResumption(book, r, delay, code); err != nil {
		if !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("schedule resumption retry", "code", workflow.RuntimeErrorCode(err))
		}
		return outcomeFailed
	}
	log.Warn("resumption delivery failed", "attempt", attempt, "code", code, "retryIn", delay.Round(time.Millisecond).String())
	if attempt >= d.o.FailureThreshold && task.ID != "" && task.Health.Code != models.HealthResumeDeliveryFailing && !task.Health.Blocking() {
		h := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing,
			Message: "The workflow runtime has not accepted the resumption; delivery is being retried."}
		if err := d.store.SetHealth(book, r.Tenant, r.TaskID, h); err != nil {
			log.Warn("set health", "code", workflow.RuntimeErrorCode(err))
		}
	}
	return outcomeFailed
}

// bookkeeping is the context of the store writes that record an outcome: they outlive a
// cancelled run (shutdown) briefly, so a finished delivery is still acknowledged.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
}
