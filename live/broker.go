// Package live fans committed task changes out to the browsers watching them (SPEC 5.1 stream,
// 5.4 live updates). The service tells the Broker about a change after commit; the Broker loads
// the task once and hands it to every subscriber of the task's tenant, and each subscriber
// decides with the read policy whether its caller may hear about it. Across nodes the changes
// travel through a Relay (PostgreSQL LISTEN/NOTIFY, see pgrelay.go).
//
// What travels is an invalidation, never content: kind, task id, revision and time. A page that
// hears one fetches what it shows again, through the ordinary authorized routes.
package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"usertasks/models"
)

// Kind says what a change is.
type Kind string

const (
	// KindCreated: a task appeared (revision 1).
	KindCreated Kind = "created"
	// KindChanged: a task moved to a new revision.
	KindChanged Kind = "changed"
	// KindResync: changes were lost (a queue overflowed); refresh everything shown.
	KindResync Kind = "resync"
	// KindNotification: the recipient's in-app notifications changed (one became visible, or
	// was read elsewhere); only the recipient's own streams hear it (Broker.Notify).
	KindNotification Kind = "notification"
	// KindComment and KindAttachment: a task's comments or files changed (SPEC 10.1, 10.2);
	// the task itself did not (no revision). Heard by the streams that see the task
	// (Broker.Activity).
	KindComment    Kind = "comment"
	KindAttachment Kind = "attachment"
)

// Change is one committed change of a task, as the service reports it, or with Recipient set
// a change of one person's notifications (no task).
type Change struct {
	Tenant     string
	TaskID     string
	Revision   int
	OccurredAt time.Time
	// Recipient is the models.ParticipantRef.Key of the person whose notifications changed;
	// "" for a task change.
	Recipient string
	// Activity is KindComment or KindAttachment for a change of a task's comments or files;
	// "" otherwise.
	Activity Kind
}

// Kind classifies the change.
func (c Change) Kind() Kind {
	if c.Recipient != "" {
		return KindNotification
	}
	if c.Activity != "" {
		return c.Activity
	}
	if c.Revision <= 1 {
		return KindCreated
	}
	return KindChanged
}

// Event is what a subscriber receives: the change and the task as loaded once, after the
// change, for every subscriber of the tenant. Task is shared between subscribers: read it,
// never modify it. A notification change carries no task (Task is nil).
type Event struct {
	Change
	Task *models.Task
}

// Loader loads a task for the visibility decision. store.Store satisfies it.
type Loader interface {
	Get(ctx context.Context, tenant, id string) (models.Task, error)
}

// Relay carries changes between the nodes of a cluster. Publish sends changes to every node;
// Listen delivers every published change, this node's own included, until ctx ends, and calls
// resync when it may have missed some (a lost connection).
type Relay interface {
	Publish(ctx context.Context, changes ...Change) error
	Listen(ctx context.Context, deliver func(Change), resync func()) error
}

// ErrTooManySubscriptions refuses a subscription over Options.MaxPerActor.
var ErrTooManySubscriptions = errors.New("live: too many streams for this caller")

// ErrClosed refuses a subscription to a stopped broker.
var ErrClosed = errors.New("live: broker stopped")

// Defaults of Options.
const (
	DefaultQueueSize   = 1024
	DefaultBufferSize  = 64
	DefaultMaxPerActor = 8
	DefaultLoadTimeout = 5 * time.Second
	DefaultHeartbeat   = 25 * time.Second
	DefaultMaxAge      = 30 * time.Minute
)

// Options tune a Broker; zero values take the defaults above.
type Options struct {
	// QueueSize bounds the changes waiting to be dispatched. Over it, changes are dropped and
	// every subscriber is told to resync.
	QueueSize int
	// BufferSize bounds the events waiting for one subscriber. A subscriber that falls behind
	// loses events and is told to resync.
	BufferSize int
	// MaxPerActor caps the open streams of one caller (tabs, devices).
	MaxPerActor int
	// LoadTimeout bounds the one task load per change.
	LoadTimeout time.Duration
	// Heartbeat is how often an idle stream sends a comment, so proxies keep it open and a
	// gone client is noticed.
	Heartbeat time.Duration
	// MaxAge ends a stream after this long; the client reconnects and is authenticated again,
	// so a revoked session or an expired token does not keep listening.
	MaxAge time.Duration
	// Relay, when set, carries changes through the cluster; nil serves this node only.
	Relay  Relay
	Logger *slog.Logger
	// Now is the clock of OccurredAt; time.Now by default.
	Now func() time.Time
}

// Broker implements models.ChangeNotifier and fans changes out to subscribers.
type Broker struct {
	loader Loader
	o      Options
	log    *slog.Logger

	queue    chan Change // changes to dispatch
	outbound chan Change // changes to publish through the relay
	overflow atomic.Bool // a change was dropped: dispatch a resync
	wake     chan struct{}

	mu      sync.Mutex
	subs    map[string]map[*Subscription]struct{} // by tenant
	perKey  map[string]int                        // open streams by tenant+actor key
	stopped bool
	once    sync.Once
}

// NewBroker builds a Broker that loads tasks through loader. Call Run to start it.
func NewBroker(loader Loader, o Options) *Broker {
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.BufferSize <= 0 {
		o.BufferSize = DefaultBufferSize
	}
	if o.MaxPerActor <= 0 {
		o.MaxPerActor = DefaultMaxPerActor
	}
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = DefaultLoadTimeout
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.MaxAge <= 0 {
		o.MaxAge = DefaultMaxAge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	b := &Broker{
		loader: loader, o: o, log: log,
		queue: make(chan Change, o.QueueSize),
		wake:  make(chan struct{}, 1),
		subs:  map[string]map[*Subscription]struct{}{}, perKey: map[string]int{},
	}
	if o.Relay != nil {
		b.outbound = make(chan Change, o.QueueSize)
	}
	return b
}

// Changed is models.ChangeNotifier: it records a committed change and returns at once. It never
// blocks; when the queue is full the change is dropped and subscribers are told to resync.
func (b *Broker) Changed(tenant, taskID string, revision int) {
	b.enqueue(Change{Tenant: tenant, TaskID: taskID, Revision: revision, OccurredAt: b.o.Now().UTC()})
}

// Changed2 enqueues c (a task's or a person's change) without blocking.
func (b *Broker) enqueue(c Change) {
	q := b.queue
	if b.outbound != nil {
		q = b.outbound // the relay brings it back to every node, this one included
	}
	select {
	case q <- c:
	default:
		b.dropped()
	}
}

// Notify tells the recipient's open streams (on every node, through the relay) that their
// in-app notifications changed: the delivery worker calls it after a notification became
// visible, the pages after marking read. Like Changed it never blocks. What travels is the
// fact alone; the page fetches its unread count through the ordinary authorized route.
func (b *Broker) Notify(tenant string, recipient models.ParticipantRef) {
	if tenant == "" || recipient.ID == "" {
		return
	}
	// The key must equal the subscriber's (the stream subscribes with its actor's Subject.Key):
	// a notification's recipient is a user of the notification's tenant.
	recipient.Tenant, recipient.Type, recipient.DisplayName = tenant, models.UserParticipant, ""
	b.enqueue(Change{Tenant: tenant, Recipient: recipient.Key(), OccurredAt: b.o.Now().UTC()})
}

// Activity tells the streams that see task taskID (on every node) that its comments
// (KindComment) or files (KindAttachment) changed: the pages call it after a comment or file
// was added or deleted. Like Changed it never blocks; any other kind is ignored.
func (b *Broker) Activity(tenant, taskID string, kind Kind) {
	if tenant == "" || taskID == "" || (kind != KindComment && kind != KindAttachment) {
		return
	}
	b.enqueue(Change{Tenant: tenant, TaskID: taskID, Activity: kind, OccurredAt: b.o.Now().UTC()})
}

// deliver enqueues a change that arrived through the relay.
func (b *Broker) deliver(c Change) {
	select {
	case b.queue <- c:
	default:
		b.dropped()
	}
}

func (b *Broker) dropped() {
	b.overflow.Store(true)
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// Run dispatches changes (and, with a relay, publishes and listens) until ctx ends; then it
// closes every subscription, so open streams end and a graceful shutdown need not wait for
// them. Pass the server's lifetime context.
func (b *Broker) Run(ctx context.Context) error {
	defer b.Close()
	var wg sync.WaitGroup
	if b.o.Relay != nil {
		wg.Add(2)
		go func() { defer wg.Done(); b.publish(ctx) }()
		go func() {
			defer wg.Done()
			if err := b.o.Relay.Listen(ctx, b.deliver, b.dropped); err != nil && ctx.Err() == nil {
				b.log.Error("live: relay listener stopped", "error", err)
			}
		}()
	}
	b.dispatch(ctx)
	wg.Wait()
	return nil
}

// Close ends every subscription and refuses new ones. Run calls it when its context ends.
func (b *Broker) Close() {
	b.once.Do(func() {
		b.mu.Lock()
		b.stopped = true
		var all []*Subscription
		for _, set := range b.subs {
			for s := range set {
				all = append(all, s)
			}
		}
		b.subs = map[string]map[*Subscription]struct{}{}
		b.mu.Unlock()
		for _, s := range all {
			s.end()
		}
	})
}

// publish hands this node's changes to the relay, in batches.
func (b *Broker) publish(ctx context.Context) {
	for {
		var batch []Change
		select {
		case <-ctx.Done():
			return
		case c := <-b.outbound:
			batch = append(batch, c)
		}
	drain:
		for len(batch) < maxBatch {
			select {
			case c := <-b.outbound:
				batch = append(batch, c)
			default:
				break drain
			}
		}
		pctx, cancel := context.WithTimeout(ctx, b.o.LoadTimeout)
		err := b.o.Relay.Publish(pctx, batch...)
		cancel()
		if err != nil && ctx.Err() == nil {
			// The other nodes miss these changes; this node's subscribers still hear them.
			b.log.Warn("live: relay publish failed", "error", err, "changes", len(batch))
			for _, c := range batch {
				b.deliver(c)
			}
		}
	}
}

// dispatch takes changes in batches, keeps the newest revision of each task, loads each task
// once and hands it to the tenant's subscribers.
func (b *Broker) dispatch(ctx context.Context) {
	for {
		var first Change
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
			b.resyncIfDropped()
			continue
		case first = <-b.queue:
		}
		batch := []Change{first}
	drain:
		for len(batch) < maxBatch {
			select {
			case c := <-b.queue:
				batch = append(batch, c)
			default:
				break drain
			}
		}
		b.resyncIfDropped()
		for _, c := range coalesce(batch) {
			b.fanOut(ctx, c)
		}
	}
}

// maxBatch bounds how many queued changes one dispatch round coalesces.
const maxBatch = 256

// coalesce keeps the newest change of each task, in the order the tasks first appeared.
func coalesce(batch []Change) []Change {
	if len(batch) == 1 {
		return batch
	}
	type key struct {
		tenant, id, recipient string
		activity              Kind
	}
	at := map[key]int{}
	out := batch[:0:0]
	for _, c := range batch {
		k := key{c.Tenant, c.TaskID, c.Recipient, c.Activity}
		if i, ok := at[k]; ok {
			if c.Revision >= out[i].Revision {
				out[i] = c
			}
			continue
		}
		at[k] = len(out)
		out = append(out, c)
	}
	return out
}

func (b *Broker) resyncIfDropped() {
	if !b.overflow.CompareAndSwap(true, false) {
		return
	}
	b.log.Warn("live: changes were lost (queue overflow or relay reconnect); every stream resyncs")
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, set := range b.subs {
		for s := range set {
			s.lose()
		}
	}
}

// fanOut loads the task once and offers it to the tenant's subscribers. A task that is gone
// (purged) or cannot be loaded is announced to nobody: the visibility of an unknown task
// cannot be decided.
func (b *Broker) fanOut(ctx context.Context, c Change) {
	targets := b.subscribers(c.Tenant)
	if len(targets) == 0 {
		return
	}
	if c.Recipient != "" {
		// A person's notifications: their own streams only, no task to load.
		key := c.Tenant + "\x00" + c.Recipient
		for _, s := range targets {
			if s.key == key {
				s.offer(Event{Change: c})
			}
		}
		return
	}
	lctx, cancel := context.WithTimeout(ctx, b.o.LoadTimeout)
	t, err := b.loader.Get(lctx, c.Tenant, c.TaskID)
	cancel()
	if err != nil {
		if !errors.Is(err, models.ErrNotFound) && ctx.Err() == nil {
			b.log.Warn("live: loading a changed task failed", "task_id", c.TaskID, "error", err)
		}
		return
	}
	ev := Event{Change: c, Task: &t}
	for _, s := range targets {
		s.offer(ev)
	}
}

func (b *Broker) subscribers(tenant string) []*Subscription {
	b.mu.Lock()
	defer b.mu.Unlock()
	set := b.subs[tenant]
	out := make([]*Subscription, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	return out
}

// Subscribe opens a subscription to the changes of tenant for the caller named by actorKey
// (used only for the per-caller cap). Close it when the stream ends.
func (b *Broker) Subscribe(tenant, actorKey string) (*Subscription, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return nil, ErrClosed
	}
	key := tenant + "\x00" + actorKey
	if b.perKey[key] >= b.o.MaxPerActor {
		return nil, ErrTooManySubscriptions
	}
	s := &Subscription{
		b: b, tenant: tenant, key: key,
		events: make(chan Event, b.o.BufferSize), lost: make(chan struct{}, 1), done: make(chan struct{}),
	}
	if b.subs[tenant] == nil {
		b.subs[tenant] = map[*Subscription]struct{}{}
	}
	b.subs[tenant][s] = struct{}{}
	b.perKey[key]++
	return s, nil
}

// Heartbeat is the interval of a stream's keep-alive comments.
func (b *Broker) Heartbeat() time.Duration { return b.o.Heartbeat }

// MaxAge is how long one stream may stay open.
func (b *Broker) MaxAge() time.Duration { return b.o.MaxAge }

// Subscribers reports how many subscriptions are open (for metrics and tests).
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, set := range b.subs {
		n += len(set)
	}
	return n
}

// Subscription is one open stream's view of the broker.
type Subscription struct {
	b           *Broker
	tenant, key string
	events      chan Event
	lost        chan struct{}
	done        chan struct{}
	endOnce     sync.Once
}

// Events delivers the tenant's changes with the task loaded.
func (s *Subscription) Events() <-chan Event { return s.events }

// Lost signals that events were dropped for this subscriber; the stream should tell its client
// to refresh everything it shows.
func (s *Subscription) Lost() <-chan struct{} { return s.lost }

// Done is closed when the subscription ends (Close, or the broker stopping).
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Close ends the subscription and frees its place under the per-caller cap. Safe to call more
// than once.
func (s *Subscription) Close() {
	b := s.b
	b.mu.Lock()
	if set, ok := b.subs[s.tenant]; ok {
		if _, mine := set[s]; mine {
			delete(set, s)
			if len(set) == 0 {
				delete(b.subs, s.tenant)
			}
		}
	}
	b.mu.Unlock()
	s.end()
}

// end closes done and releases the cap slot once.
func (s *Subscription) end() {
	s.endOnce.Do(func() {
		b := s.b
		b.mu.Lock()
		if b.perKey[s.key]--; b.perKey[s.key] <= 0 {
			delete(b.perKey, s.key)
		}
		b.mu.Unlock()
		close(s.done)
	})
}

// offer hands ev to the subscriber without waiting; a full buffer loses it and asks for resync.
func (s *Subscription) offer(ev Event) {
	select {
	case <-s.done:
		return
	default:
	}
	select {
	case s.events <- ev:
	default:
		s.lose()
	}
}

func (s *Subscription) lose() {
	select {
	case s.lost <- struct{}{}:
	default:
	}
}
