package workers

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/workflow"
)

// DeliveryStore is what the Deliverer needs from the store.
type DeliveryStore interface {
	ClaimDeliveries(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Delivery, error)
	AckDelivery(ctx context.Context, d models.Delivery) error
	RetryDelivery(ctx context.Context, d models.Delivery, delay time.Duration, errCode string, abandon bool) (int, error)
	ExpireInvitations(ctx context.Context, limit int) (map[string]int, error)
	FindInvitationByTokenHash(ctx context.Context, tokenHash string) (models.Invitation, error)
	Now(ctx context.Context) (time.Time, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
}

// DeliverySchedule is SPEC 6's: a failed attempt is retried after 15 s, 1 min, 5 min and
// 30 min; the fifth failure abandons the delivery.
var DeliverySchedule = []time.Duration{15 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute}

// Safe codes of the deliveries the Deliverer fails itself.
const (
	DeliveryExpired         = "expired"                   // the invitation expired before it went out
	DeliveryNoDispatcher    = "dispatcher-not-configured" // the row names a dispatcher this node lacks
	DeliveryBadPayload      = "payload-undecodable"       // the opened payload is not an invitation's
	DeliveryNotPending      = "invitation-closed"         // revoked, verified or consumed before it went out
	deliveryFailingHealthEN = "An invitation could not be delivered; issue a new one or assign the task to someone else."
)

// DeliveryOptions tune a Deliverer; zero values take SPEC 7's defaults.
type DeliveryOptions struct {
	// Owner names this node on the leases it takes. Default NodeID().
	Owner string
	// BaseURL is USERTASKS_BASE_URL, the start of every invitation link.
	BaseURL string
	// BatchSize is how many rows one run claims. Default 50.
	BatchSize int
	// Parallel is how many dispatches of a batch run at once. Default 8.
	Parallel int
	// Timeout bounds one dispatch attempt. Default 30 s.
	Timeout time.Duration
	// LeaseFor is how long a claimed row stays with this node. Default 5 min, and never less
	// than a whole batch may take (BatchSize / Parallel rounds of Timeout each), so no other
	// node claims a row that is still waiting for its turn here.
	LeaseFor time.Duration
	// Schedule spaces the retries. Default DeliverySchedule.
	Schedule []time.Duration
	// ExpireBatch bounds the invitations one expiry sweep marks expired. Default 200.
	ExpireBatch int
	Logger      *slog.Logger
}

// Deliverer sends the invitation delivery outbox (SPEC 6, 7): it claims due rows with fenced
// leases, opens each payload for one attempt, hands it once to the dispatcher the row names,
// and acknowledges it (the invitation becomes dispatched) or schedules the next attempt; after
// the schedule it abandons the row and flags the task invitation-delivery-failing. Rows whose
// invitation expired are dropped unsent, and Expire marks expired invitations. The raw token,
// the code and the address never reach a log line or a stored error. Safe on many nodes.
type Deliverer struct {
	store       DeliveryStore
	dispatchers map[string]invitations.Dispatcher
	o           DeliveryOptions
	log         *slog.Logger
}

// NewDeliverer builds a Deliverer over the named dispatchers (invitations.DispatcherSMTP, …).
func NewDeliverer(store DeliveryStore, dispatchers map[string]invitations.Dispatcher, o DeliveryOptions) *Deliverer {
	if o.Owner == "" {
		o.Owner = NodeID()
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 50
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.LeaseFor <= 0 {
		o.LeaseFor = 5 * time.Minute
	}
	o.LeaseFor = max(o.LeaseFor, time.Duration((o.BatchSize+o.Parallel-1)/o.Parallel)*o.Timeout)
	if len(o.Schedule) == 0 {
		o.Schedule = DeliverySchedule
	}
	if o.ExpireBatch <= 0 {
		o.ExpireBatch = 200
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Deliverer{store: store, dispatchers: dispatchers, o: o, log: log.With("worker", string(models.WorkerDeliveries))}
}

// DeliveryCounts count what one run did.
type DeliveryCounts struct {
	Claimed   int // rows leased to this node
	Sent      int // accepted by their dispatcher
	Failed    int // scheduled for another attempt
	Abandoned int // failed for the last time
	Dropped   int // expired, revoked or used before they went out
	Expired   int // invitations the sweep marked expired
}

func (c *DeliveryCounts) add(o DeliveryCounts) {
	c.Claimed += o.Claimed
	c.Sent += o.Sent
	c.Failed += o.Failed
	c.Abandoned += o.Abandoned
	c.Dropped += o.Dropped
	c.Expired += o.Expired
}

func (c DeliveryCounts) busy() bool { return c != DeliveryCounts{} }

// DeliveryResult counts what a run did, in all and per tenant.
type DeliveryResult struct {
	DeliveryCounts
	Tenants map[string]DeliveryCounts
}

func (r *DeliveryResult) count(tenant string, one DeliveryCounts) {
	if r.Tenants == nil {
		r.Tenants = map[string]DeliveryCounts{}
	}
	r.DeliveryCounts.add(one)
	c := r.Tenants[tenant]
	c.add(one)
	r.Tenants[tenant] = c
}

// Expire marks up to ExpireBatch expired invitations and drops their unsent deliveries.
func (d *Deliverer) Expire(ctx context.Context) (DeliveryResult, error) {
	var res DeliveryResult
	expired, err := d.store.ExpireInvitations(ctx, d.o.ExpireBatch)
	for tenant, n := range expired {
		res.count(tenant, DeliveryCounts{Expired: n})
	}
	return res, err
}

// RunOnce claims one batch and dispatches it.
func (d *Deliverer) RunOnce(ctx context.Context) (DeliveryResult, error) {
	var res DeliveryResult
	rows, err := d.store.ClaimDeliveries(ctx, d.o.Owner, d.o.BatchSize, d.o.LeaseFor)
	if err != nil || len(rows) == 0 {
		return res, err
	}
	// The database clock decides expiry, as it decides the leases.
	now, err := d.store.Now(ctx)
	if err != nil {
		now = time.Now() // the lease still fences whatever this decides
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, d.o.Parallel)
	for _, row := range rows {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			one := d.deliver(ctx, row, now)
			one.Claimed = 1
			mu.Lock()
			res.count(row.Tenant, one)
			mu.Unlock()
		})
	}
	wg.Wait()
	return res, nil
}

// deliver handles one claimed row.
func (d *Deliverer) deliver(ctx context.Context, row models.Delivery, now time.Time) DeliveryCounts {
	log := d.log.With("tenant", row.Tenant, "taskId", row.TaskID, "invitationId", row.InvitationID, "dispatcher", row.Dispatcher)
	book, cancel := bookkeeping(ctx)
	defer cancel()
	if ctx.Err() != nil {
		return DeliveryCounts{} // shutting down: the row goes out after its lease, no attempt counted
	}
	if !row.ExpiresAt.After(now) {
		if _, err := d.store.RetryDelivery(book, row, 0, DeliveryExpired, true); err != nil && !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("drop expired delivery", "code", workflow.RuntimeErrorCode(err))
		}
		log.Info("invitation delivery dropped: the invitation expired first")
		return DeliveryCounts{Dropped: 1}
	}
	p, err := invitations.DecodePayload(row.Payload)
	if err != nil {
		return d.fail(book, log, row, DeliveryBadPayload, true)
	}
	// A revoke (or a verification through another channel) may have come first: such an
	// invitation's link is never sent.
	switch inv, err := d.store.FindInvitationByTokenHash(ctx, invitations.HashSecret(p.Token)); {
	case errors.Is(err, models.ErrNotFound), err == nil && (inv.ID != row.InvitationID || !sendable(inv.Status)):
		if _, err := d.store.RetryDelivery(book, row, 0, DeliveryNotPending, true); err != nil && !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("drop delivery of a closed invitation", "code", workflow.RuntimeErrorCode(err))
		}
		log.Info("invitation delivery dropped: the invitation is no longer pending")
		return DeliveryCounts{Dropped: 1}
	case err != nil:
		return d.fail(book, log, row, workflow.RuntimeErrorCode(err), false)
	}
	dispatcher, ok := d.dispatchers[row.Dispatcher]
	if !ok {
		return d.fail(book, log, row, DeliveryNoDispatcher, false)
	}
	attempt, stop := context.WithTimeout(ctx, d.o.Timeout)
	err = dispatcher.Dispatch(attempt, invitations.MessageOf(d.o.BaseURL, row.Tenant, row.TaskID, row.InvitationID, row.ExpiresAt, p))
	stop()
	if err != nil && ctx.Err() != nil {
		log.Info("invitation delivery interrupted by shutdown; it is tried again once its lease ends")
		return DeliveryCounts{}
	}
	if err != nil {
		return d.fail(book, log, row, invitations.ErrorCode(err), false)
	}
	switch err := d.store.AckDelivery(book, row); {
	case errors.Is(err, models.ErrLeaseLost):
		// The lease ran out during the attempt: another node may send the invitation again.
		log.Warn("invitation sent, but its lease was gone at acknowledgement")
	case err != nil:
		log.Warn("invitation sent but not acknowledged; it may be sent again", "code", workflow.RuntimeErrorCode(err))
	default:
		log.Debug("invitation sent", "attempt", row.Attempts+1)
	}
	// A delivery that went out answers an earlier abandoned one's finding.
	if t, err := d.store.Get(book, row.Tenant, row.TaskID); err == nil && t.Health.Code == models.HealthInvitationDeliveryFailing {
		if err := d.store.ClearHealth(book, row.Tenant, row.TaskID, models.HealthInvitationDeliveryFailing); err != nil {
			log.Warn("clear health", "code", workflow.RuntimeErrorCode(err))
		}
	}
	return DeliveryCounts{Sent: 1}
}

// sendable reports whether an invitation in status s may still be sent to its guest.
func sendable(s models.InvitationStatus) bool {
	return s == models.InvitationPending || s == models.InvitationDispatched
}

// fail records a failed attempt with its safe code: the next attempt on the schedule, or,
// when the schedule is spent (or now is set), abandonment and the task's advisory health.
func (d *Deliverer) fail(book context.Context, log *slog.Logger, row models.Delivery, code string, now bool) DeliveryCounts {
	attempt := row.Attempts + 1
	abandon := now || attempt > len(d.o.Schedule)
	var delay time.Duration
	if !abandon {
		delay = d.o.Schedule[attempt-1]
	}
	if _, err := d.store.RetryDelivery(book, row, delay, code, abandon); err != nil {
		if !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("record invitation delivery failure", "code", workflow.RuntimeErrorCode(err))
		}
		return DeliveryCounts{Failed: 1}
	}
	if !abandon {
		log.Warn("invitation delivery failed", "attempt", attempt, "code", code, "retryIn", delay.String())
		return DeliveryCounts{Failed: 1}
	}
	log.Warn("invitation delivery abandoned", "attempt", attempt, "code", code)
	d.flag(book, log, row)
	return DeliveryCounts{Abandoned: 1}
}

// flag sets the advisory health invitation-delivery-failing on the task, unless it already
// has a finding (a finding is never replaced by a lesser one; SetHealth leaves closed tasks
// and blocking findings alone).
func (d *Deliverer) flag(ctx context.Context, log *slog.Logger, row models.Delivery) {
	t, err := d.store.Get(ctx, row.Tenant, row.TaskID)
	if err != nil {
		if !errors.Is(err, models.ErrNotFound) {
			log.Warn("read task for health", "code", workflow.RuntimeErrorCode(err))
		}
		return
	}
	if t.Health.Severity != models.SeverityNone {
		return
	}
	h := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthInvitationDeliveryFailing, Message: deliveryFailingHealthEN}
	if err := d.store.SetHealth(ctx, row.Tenant, row.TaskID, h); err != nil {
		log.Warn("set health", "code", workflow.RuntimeErrorCode(err))
	}
}

func (c DeliveryCounts) recorded() (models.Worker, map[string]int) {
	return models.WorkerDeliveries, map[string]int{"claimed": c.Claimed, "sent": c.Sent, "failed": c.Failed,
		"abandoned": c.Abandoned, "dropped": c.Dropped, "expired": c.Expired}
}

// deliveryLoop sends the invitation outbox: on its interval (with the expiry sweep first), at
// once on a kick, and again at once after a full batch. Runs are recorded like the resumption
// outbox's: per tenant, in windows of at least DispatchRecordEvery that did something.
func (w *Workers) deliveryLoop(ctx, work context.Context) {
	report := failureReporter{log: w.log, worker: string(models.WorkerDeliveries)}
	rec := newRunRecorder(w.runs, w.log)
	var window deliveryWindow
	defer func() { rec.record(work, window.take(time.Now(), DispatchRecordEvery, true)) }()
	poll(ctx, 0, w.deliverKick, func(sweep bool) (time.Duration, bool) {
		var res DeliveryResult
		var err error
		if sweep {
			res, err = w.Deliverer.Expire(work)
			window.add(res, err, time.Now())
		}
		if err == nil {
			res, err = w.Deliverer.RunOnce(work)
			window.add(res, err, time.Now())
		}
		report.outcome(err)
		rec.record(work, window.take(time.Now(), DispatchRecordEvery, false))
		if err == nil && res.Claimed >= w.Deliverer.o.BatchSize {
			return 0, true
		}
		return w.o.DeliverEvery, sweep
	})
}

// deliveryWindow aggregates the delivery loop's runs between two recordings.
type deliveryWindow struct {
	runWindow[DeliveryCounts, *DeliveryCounts]
}

// add folds one run into the window; an idle run leaves it untouched.
func (w *deliveryWindow) add(res DeliveryResult, err error, now time.Time) {
	if res.busy() || err != nil {
		w.fold(res.Tenants, err, now)
	}
}
