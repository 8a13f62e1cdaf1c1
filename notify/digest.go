package notify

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// The digest worker (SPEC 10.3): a person who chose an hourly or daily digest gets one mail per
// period listing what happened, grouped by task. The delivery worker leaves their rows waiting
// (email "digest"); each run of this worker looks at the people with waiting rows and, once
// the period of their oldest waiting row has ended (hourly: the UTC hour; daily: the calendar
// day in their time zone), leases that period's rows, mails them in one digest and marks them
// digested in one write.
//
// Faults lose nothing: a failed send leaves the rows leased until the lease runs out, and the
// next run after that sends them again. Like every email, a digest is at least once (a relay
// that accepted it without the worker hearing so gets it again; the Message-ID, made from the
// rows, is the same both times).
//
// A person who has gone back to no digest while rows waited gets those rows at the next run in
// one last digest, not one mail each: they are the same news, and one mail is what the person
// was promised when it happened. Rows of a trigger whose email the person has turned off
// since, of a task that is gone or (with Visible) no longer theirs to see, and everything of
// a person without an address leave the queue unsent (marked digested: there is no other
// outcome for a digest row, and no row ever waits for nothing).

// DigestStore is what the digest worker needs from the store.
type DigestStore interface {
	Now(ctx context.Context) (time.Time, error)
	DigestsWaiting(ctx context.Context, limit int) ([]store.DigestWaiting, error)
	ClaimDigest(ctx context.Context, owner string, w store.DigestWaiting, before time.Time, limit int, leaseFor time.Duration) ([]models.Notification, error)
	SettleDigest(ctx context.Context, ns []models.Notification) error
	Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error)
	Get(ctx context.Context, tenant, id string) (models.Task, error)
}

// DigestOptions tune a Digester; zero values take the defaults.
type DigestOptions struct {
	// Owner names this node on the leases it takes. Default the host name and a random suffix.
	Owner string
	// Mailer sends the digests. Required.
	Mailer Mailer
	// Address is where a person's mail goes (the directory's address, else the one their
	// last sign-in recorded); nil: the recorded one (Person.Email). An error leaves the rows
	// for a later run.
	Address func(ctx context.Context, p models.Person) (string, error)
	// Visible, when set, checks again that the person may see the task; the rows of a task
	// they can no longer see are left out. An error leaves the rows for a later run.
	Visible func(ctx context.Context, t models.Task, p models.Person) (bool, error)
	// Recipients bounds the people one run looks at. Default 500.
	Recipients int
	// MaxItems bounds the rows of one digest; more of one period go out in the next run's
	// mail. Default 1000.
	MaxItems int
	// Timeout bounds one send. Default 30 s.
	Timeout time.Duration
	// LeaseFor is how long a claimed digest stays with this node. Default 5 min, and never
	// less than twice Timeout.
	LeaseFor time.Duration
	Logger   *slog.Logger
}

// Digester sends the digests. Safe on many nodes: the rows' leases decide who sends.
type Digester struct {
	store DigestStore
	o     DigestOptions
	log   *slog.Logger
}

// NewDigester builds the digest worker.
func NewDigester(s DigestStore, o DigestOptions) (*Digester, error) {
	if s == nil || o.Mailer == nil {
		return nil, errors.New("notify: the digest worker needs a store and a mailer")
	}
	if o.Owner == "" {
		o.Owner = nodeID()
	}
	if o.Recipients <= 0 {
		o.Recipients = 500
	}
	if o.MaxItems <= 0 {
		o.MaxItems = 1000
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.LeaseFor <= 0 {
		o.LeaseFor = 5 * time.Minute
	}
	o.LeaseFor = max(o.LeaseFor, 2*o.Timeout)
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Digester{store: s, o: o, log: log.With("worker", "notification-digest")}, nil
}

// DigestCounts count what one run did.
type DigestCounts struct {
	Mails   int // digests sent
	Items   int // rows that went out in them
	Unsent  int // rows that left the queue without a mail (see the package comment)
	Failed  int // digests whose send failed (their rows go out again after the lease)
	Waiting int // people whose period has not ended yet
}

// RunOnce sends every digest whose period has ended, for up to Recipients people.
func (d *Digester) RunOnce(ctx context.Context) (DigestCounts, error) {
	var c DigestCounts
	now, err := d.store.Now(ctx)
	if err != nil {
		return c, err
	}
	waiting, err := d.store.DigestsWaiting(ctx, d.o.Recipients)
	if err != nil {
		return c, err
	}
	for _, w := range waiting {
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
		if relayDown := d.digest(ctx, w, now, &c); relayDown {
			break // the others' digests would wait for the same relay: the next run tries again
		}
	}
	return c, nil
}

// Run runs RunOnce every interval until ctx ends.
func (d *Digester) Run(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := d.RunOnce(ctx); err != nil && ctx.Err() == nil {
			d.log.Warn("digest run failed", "code", string(models.ErrorCode(err)))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// digest handles one person's waiting rows. It reports whether a send failed in a way that
// is not this mail's (the relay down, slow or refusing the configuration).
func (d *Digester) digest(ctx context.Context, w store.DigestWaiting, now time.Time, c *DigestCounts) bool {
	log := d.log.With("tenant", w.Tenant)
	p, err := d.store.Person(ctx, w.Tenant, w.Recipient)
	switch {
	case errors.Is(err, models.ErrNotFound):
		p = models.Person{Tenant: w.Tenant, User: w.Recipient, Preferences: models.DefaultNotificationPreferences()}
	case err != nil:
		log.Warn("digest: reading the person failed")
		return false
	}
	prefs := p.Preferences.Complete()
	end, due := PeriodEnd(prefs.Digest, w.Oldest, location(p.TimeZone), now)
	if !due {
		c.Waiting++
		return false
	}
	rows, err := d.store.ClaimDigest(ctx, d.o.Owner, w, end, d.o.MaxItems, d.o.LeaseFor)
	if err != nil || len(rows) == 0 {
		if err != nil {
			log.Warn("digest: claiming rows failed")
		}
		return false
	}
	items, ok := d.items(ctx, p, prefs, rows)
	if !ok {
		return false // a read failed: the rows go out after their lease
	}
	address := p.Email
	if d.o.Address != nil {
		if address, err = d.o.Address(ctx, p); err != nil {
			log.Warn("digest: finding the address failed")
			return false
		}
	}
	book, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if address == "" || len(items) == 0 {
		d.settle(book, log, rows, c, 0)
		return false
	}
	send, stop := context.WithTimeout(ctx, d.o.Timeout)
	err = d.o.Mailer.SendDigest(send, Recipient{Person: p, Address: address}, prefs.Digest, items)
	stop()
	if err != nil {
		c.Failed++
		log.Warn("digest: sending failed", "code", MailErrorCode(err), "rows", len(rows))
		if errors.Is(err, ErrPermanent) {
			d.settle(book, log, rows, c, 0) // the relay refuses this mail for good
			return false
		}
		return true
	}
	c.Mails++
	d.settle(book, log, rows, c, len(items))
	return false
}

// settle marks rows digested: sent of them went out in a mail, the rest leave unsent.
func (d *Digester) settle(ctx context.Context, log *slog.Logger, rows []models.Notification, c *DigestCounts, sent int) {
	if err := d.store.SettleDigest(ctx, rows); err != nil {
		if errors.Is(err, models.ErrLeaseLost) {
			log.Warn("digest: the lease ran out before the rows were settled; they may be mailed again")
		} else {
			log.Warn("digest: settling rows failed; they may be mailed again")
		}
		return
	}
	c.Items += sent
	c.Unsent += len(rows) - sent
}
