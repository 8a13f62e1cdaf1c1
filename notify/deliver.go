package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// Store is what the delivery worker needs from the store: the notification rows' leases and
// outcomes, the task and its advisory health, the person the product recorded, and whether they
// acted on the task.
type Store interface {
	ClaimNotifications(ctx context.Context, owner string, limit int, leaseFor time.Duration) ([]models.Notification, error)
	SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error
	ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
	SetHealth(ctx context.Context, tenant, taskID string, h models.Health) error
	ClearHealth(ctx context.Context, tenant, taskID, code string) error
	Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error)
	HasActed(ctx context.Context, tenant, id string, actor models.ParticipantRef) (bool, error)
	Now(ctx context.Context) (time.Time, error)
}

// Schedule is SPEC 10.3's: a failed attempt is retried after 1 min, 5 min, 30 min and 2 h;
// the fifth failure is final (the row and the channel that failed become failed).
var Schedule = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour}

// Safe codes of the rows the worker settles without sending.
const (
	CodeNoDirectory   = "no-directory"          // a group row, and no directory to expand it
	CodeGroupUnknown  = "group-unknown"         // the directory does not know the group
	CodeDirectoryDown = "directory-unavailable" // the directory did not answer
	CodeTaskGone      = "task-gone"             // the task was purged before delivery
	CodeNotVisible    = "not-visible"           // the recipient can no longer see the task
	CodeNotRecipient  = "not-notifiable"        // a guest, an excluded user, or no user at all
	CodeStore         = "store-unavailable"     // the store did not answer a read
	CodeEmailRefused  = "email-refused"         // the mailer refused for good (ErrPermanent)
	CodeEmailTimeout  = "email-timeout"
	CodeEmailFailed   = "email-failed"
)

// Options tune a Deliverer; zero values take the defaults.
type Options struct {
	// Owner names this node on the leases it takes.
	Owner string
	// BaseURL is USERTASKS_BASE_URL: links are BaseURL/tasks/{id}.
	BaseURL string
	// BatchSize is how many rows one run claims. Default 100: its own batch and lease, apart
	// from the resumption outbox's, so a storm of notifications never holds a resumption back.
	BatchSize int
	// Parallel bounds the rows of a batch handled (and sent) at once. Default 8.
	Parallel int
	// Writes bounds the worker's store writes in flight at once (outcomes, expansions, health).
	// Default 1: SQLite has one writer, and every write of the worker waiting for it is one
	// more ahead of the requests the node answers; a server database may take more.
	Writes int
	// Timeout bounds one send (a mail or a webhook call). Default 10 s.
	Timeout time.Duration
	// LeaseFor is how long a claimed row stays with this node. Default 5 min, and never less
	// than a batch may take (BatchSize / Parallel rounds of two sends each).
	LeaseFor time.Duration
	// Schedule spaces the retries. Default Schedule.
	Schedule []time.Duration
	// Directory expands group rows, answers live group membership for the visibility check
	// and may know addresses (directory.Contacts); nil: group rows are dropped (no-directory).
	Directory directory.Directory
	// DirectoryCache is how long a directory answer is reused. Default 30 s.
	DirectoryCache time.Duration
	// Mailer sends email; nil when SMTP is not configured (the email channel is off).
	Mailer Mailer
	// Webhook posts every shown notification; nil when no webhook is configured.
	Webhook *Webhook
	// Shown, when set, hears that a row was just shown in its recipient's in-app list (the
	// live bell). It must not block.
	Shown func(tenant string, recipient models.ParticipantRef)
	// Observer, when set, hears every channel outcome and the backlog's age.
	Observer Observer
	Logger   *slog.Logger
}

// Observer hears the delivery worker's outcomes (metrics.Metrics implements it).
type Observer interface {
	// NotificationDelivered counts one outcome on one channel: channel in-app, email,
	// webhook; outcome shown, sent, digest, off, retried, failed, dropped.
	NotificationDelivered(channel, outcome string)
	// NotificationBacklog is how long the oldest row of a claimed batch had waited (zero when
	// a run found nothing due).
	NotificationBacklog(age time.Duration)
}

// Deliverer delivers notification rows (SPEC 10.3): it claims due rows with fenced leases,
// expands a group row into its members' rows, checks that a user row's recipient may still see
// the task, shows it in their in-app list and sends it on by email and webhook, then settles
// the row or schedules its next attempt. A channel already sent is never sent again; a retry
// sends only what failed. Safe on many nodes: a lease fences each row, and the webhook's
// Idempotency-Key (the row id) lets the receiver drop the repeat a lost lease may cause.
type Deliverer struct {
	store Store
	dir   *directoryCache // nil without a directory
	o     Options
	log   *slog.Logger
}

// NewDeliverer builds a Deliverer on store.
func NewDeliverer(store Store, o Options) *Deliverer {
	if o.BatchSize <= 0 {
		o.BatchSize = 100
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	if o.Writes <= 0 {
		o.Writes = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.LeaseFor <= 0 {
		o.LeaseFor = 5 * time.Minute
	}
	o.LeaseFor = max(o.LeaseFor, time.Duration((o.BatchSize+o.Parallel-1)/o.Parallel)*2*o.Timeout)
	if len(o.Schedule) == 0 {
		o.Schedule = Schedule
	}
	if o.DirectoryCache <= 0 {
		o.DirectoryCache = 30 * time.Second
	}
	if o.Owner == "" {
		o.Owner = nodeID()
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	if o.Writes < o.Parallel {
		store = writeGate{Store: store, gate: make(chan struct{}, o.Writes)}
	}
	d := &Deliverer{store: store, o: o, log: log.With("worker", string(models.WorkerNotify))}
	if o.Directory != nil {
		d.dir = newDirectoryCache(o.Directory, o.DirectoryCache)
	}
	return d
}

// BatchSize is how many rows one run claims (a full batch means more may wait).
func (d *Deliverer) BatchSize() int { return d.o.BatchSize }

// RunOnce claims one batch and delivers it.
func (d *Deliverer) RunOnce(ctx context.Context) (Result, error) {
	var res Result
	rows, err := d.store.ClaimNotifications(ctx, d.o.Owner, d.o.BatchSize, d.o.LeaseFor)
	if err != nil {
		return res, err
	}
	d.observeBacklog(ctx, rows)
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, d.o.Parallel)
	for _, row := range rows {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			one := d.deliver(ctx, row)
			one.Claimed = 1
			mu.Lock()
			res.count(row.Tenant, one)
			mu.Unlock()
		})
	}
	wg.Wait()
	return res, nil
}

// observeBacklog tells the observer how long the oldest claimed row waited (rows come oldest
// first; none claimed: no backlog).
func (d *Deliverer) observeBacklog(ctx context.Context, rows []models.Notification) {
	if d.o.Observer == nil {
		return
	}
	if len(rows) == 0 {
		d.o.Observer.NotificationBacklog(0)
		return
	}
	now, err := d.store.Now(ctx)
	if err != nil {
		return
	}
	oldest := rows[0].AvailableAt
	for _, r := range rows {
		if r.AvailableAt.Before(oldest) {
			oldest = r.AvailableAt
		}
	}
	d.o.Observer.NotificationBacklog(max(0, now.Sub(oldest)))
}

// deliver handles one claimed row.
func (d *Deliverer) deliver(ctx context.Context, n models.Notification) Counts {
	if ctx.Err() != nil {
		return Counts{} // shutting down: the row is claimed again once its lease ends
	}
	log := d.log.With("tenant", n.Tenant, "taskId", n.TaskID, "notificationId", n.ID, "trigger", string(n.Trigger))
	book, cancel := bookkeeping(ctx)
	defer cancel()
	t, err := d.store.Get(ctx, n.Tenant, n.TaskID)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return d.drop(book, log, n, CodeTaskGone)
	case err != nil:
		return d.retry(book, log, n, n.Email, n.Webhook, CodeStore, n.VisibleAt != nil)
	}
	if n.Recipient.Type == models.GroupParticipant {
		return d.expand(ctx, book, log, n, t)
	}
	return d.deliverToUser(ctx, book, log, n, t)
}

// drop settles n as dropped: nothing shown, nothing (more) sent.
func (d *Deliverer) drop(book context.Context, log *slog.Logger, n models.Notification, code string) Counts {
	out := models.NotificationOutcome{State: models.NotificationDropped, Email: offUnlessSettled(n.Email),
		Webhook: offUnlessSettled(n.Webhook), ErrorCode: code}
	if err := d.store.SettleNotification(book, n, out); err != nil && !errors.Is(err, models.ErrLeaseLost) {
		log.Warn("settle dropped notification", "code", errorCode(err))
		return Counts{}
	}
	log.Info("notification dropped", "code", code)
	d.observe("in-app", "dropped")
	return Counts{Dropped: 1}
}

// offUnlessSettled keeps a channel that already has an outcome and turns an undecided one off.
func offUnlessSettled(c models.ChannelState) models.ChannelState {
	if c.Settled() {
		return c
	}
	return models.ChannelOff
}

// failure is the outcome of a failed attempt with its safe code: the next attempt on the
// schedule with the channels as they are now (an undecided one is tried again), or, when the
// schedule is spent, the row failed with every undecided channel failed (final).
func (d *Deliverer) failure(n models.Notification, email, webhook models.ChannelState, code string, visible bool) (models.NotificationOutcome, bool) {
	attempt := n.Attempts + 1
	out := models.NotificationOutcome{State: models.NotificationPending, Email: email, Webhook: webhook, Visible: visible, ErrorCode: code}
	if attempt <= len(d.o.Schedule) {
		out.RetryAfter = d.o.Schedule[attempt-1]
		return out, false
	}
	out.State = models.NotificationFailed
	if !email.Settled() {
		out.Email = models.ChannelFailed
	}
	if !webhook.Settled() {
		out.Webhook = models.ChannelFailed
	}
	return out, true
}

// retry records a failed attempt of a row that sent nothing this time (a read or the
// directory failed).
func (d *Deliverer) retry(book context.Context, log *slog.Logger, n models.Notification, email, webhook models.ChannelState, code string, visible bool) Counts {
	out, final := d.failure(n, email, webhook, code, visible)
	if err := d.store.SettleNotification(book, n, out); err != nil {
		if !errors.Is(err, models.ErrLeaseLost) {
			log.Warn("record notification failure", "code", errorCode(err))
		}
		return Counts{}
	}
	if final {
		log.Warn("notification delivery failed for good", "attempt", n.Attempts+1, "code", code)
		d.flagFailing(book, log, n, channelInApp, models.Health{}) // a read or the directory failed
		return Counts{Failed: 1}
	}
	log.Warn("notification delivery failed", "attempt", n.Attempts+1, "code", code, "retryIn", out.RetryAfter.String())
	return Counts{Retried: 1}
}

// link is the task's page: USERTASKS_BASE_URL/tasks/{id}, the id escaped as one path segment.
func (d *Deliverer) link(taskID string) string {
	return strings.TrimRight(d.o.BaseURL, "/") + "/tasks/" + url.PathEscape(taskID)
}

func (d *Deliverer) observe(channel, outcome string) {
	if d.o.Observer != nil {
		d.o.Observer.NotificationDelivered(channel, outcome)
	}
}

// nodeID names this process on leases when no owner is given: the host name and a random
// suffix, so two processes on one host never share a lease (as workers.NodeID).
func nodeID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "node"
	}
	var b [6]byte
	rand.Read(b[:])
	return host[:min(len(host), 100)] + "-" + hex.EncodeToString(b[:])
}

// bookkeeping is the context of the store writes that record an outcome: they outlive a
// cancelled run (shutdown) briefly, so a finished send is still recorded.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
}

// errorCode is the safe code of a store error for the log: the domain's code, else "internal"
// (never the error's text, which may carry addresses or URLs).
func errorCode(err error) string {
	if code := models.ErrorCode(err); code != "" {
		return string(code)
	}
	return "internal"
}
