package live_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/live"
	"usertasks/models"
)

// loader serves tasks from memory and counts loads.
type loader struct {
	mu    sync.Mutex
	tasks map[string]models.Task
	loads atomic.Int32
}

func newLoader(ts ...models.Task) *loader {
	l := &loader{tasks: map[string]models.Task{}}
	for _, t := range ts {
		l.tasks[t.Tenant+"/"+t.ID] = t
	}
	return l
}

func (l *loader) Get(_ context.Context, tenant, id string) (models.Task, error) {
	l.loads.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.tasks[tenant+"/"+id]
	if !ok {
		return models.Task{}, models.ErrNotFound
	}
	return t, nil
}

func task(tenant, id string, rev int) models.Task {
	return models.Task{ID: id, Tenant: tenant, Revision: rev, Status: models.StatusAvailable}
}

// start runs b until the test ends.
func start(t *testing.T, b *live.Broker) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = b.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

func subscribe(t *testing.T, b *live.Broker, tenant, actor string) *live.Subscription {
	t.Helper()
	s, err := b.Subscribe(tenant, actor)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func next(t *testing.T, s *live.Subscription) live.Event {
	t.Helper()
	select {
	case ev := <-s.Events():
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return live.Event{}
}

func none(t *testing.T, s *live.Subscription) {
	t.Helper()
	select {
	case ev := <-s.Events():
		t.Fatalf("unexpected event %+v", ev.Change)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestBrokerFanOut(t *testing.T) {
	l := newLoader(task("t1", "a", 2), task("t2", "b", 1))
	b := live.NewBroker(l, live.Options{})
	start(t, b)
	ann, bob, other := subscribe(t, b, "t1", "ann"), subscribe(t, b, "t1", "bob"), subscribe(t, b, "t2", "carl")

	b.Changed("t1", "a", 2)
	for _, s := range []*live.Subscription{ann, bob} {
		ev := next(t, s)
		if ev.TaskID != "a" || ev.Revision != 2 || ev.Kind() != live.KindChanged || ev.Task == nil || ev.Task.ID != "a" {
			t.Fatalf("got %+v, want task a revision 2 with the task loaded", ev.Change)
		}
		if ev.OccurredAt.IsZero() || ev.OccurredAt.Location() != time.UTC {
			t.Fatalf("occurredAt %v, want a UTC time", ev.OccurredAt)
		}
	}
	none(t, other)
	if got := l.loads.Load(); got != 1 {
		t.Fatalf("%d loads for one change and two subscribers, want 1", got)
	}

	t.Run("CreatedKind", func(t *testing.T) {
		b.Changed("t2", "b", 1)
		if ev := next(t, other); ev.Kind() != live.KindCreated {
			t.Fatalf("kind %q, want created", ev.Kind())
		}
	})
	t.Run("MissingTaskAnnouncedToNobody", func(t *testing.T) {
		b.Changed("t1", "purged", 7)
		none(t, ann)
	})
	t.Run("NoSubscribersNoLoad", func(t *testing.T) {
		before := l.loads.Load()
		b.Changed("t3", "x", 2)
		b.Changed("t1", "a", 3) // a barrier: once ann has it, t3's change was dispatched
		next(t, ann)
		if got := l.loads.Load() - before; got != 1 {
			t.Fatalf("%d loads, want 1 (none for a tenant without subscribers)", got)
		}
	})
}

func TestBrokerCoalescesQueuedChanges(t *testing.T) {
	l := newLoader(task("t1", "a", 5), task("t1", "b", 2))
	b := live.NewBroker(l, live.Options{})
	s := subscribe(t, b, "t1", "ann")
	for rev := 2; rev <= 5; rev++ { // queued before the dispatcher runs: one batch
		b.Changed("t1", "a", rev)
	}
	b.Changed("t1", "b", 2)
	start(t, b)
	if ev := next(t, s); ev.TaskID != "a" || ev.Revision != 5 {
		t.Fatalf("first %s@%d, want a@5", ev.TaskID, ev.Revision)
	}
	if ev := next(t, s); ev.TaskID != "b" {
		t.Fatalf("second %s, want b", ev.TaskID)
	}
	none(t, s)
	if got := l.loads.Load(); got != 2 {
		t.Fatalf("%d loads, want 2", got)
	}
}

func TestBrokerChangedNeverBlocks(t *testing.T) {
	b := live.NewBroker(newLoader(task("t1", "a", 2)), live.Options{QueueSize: 1})
	s := subscribe(t, b, "t1", "ann")
	done := make(chan struct{})
	go func() {
		for i := range 10_000 { // nobody dispatches yet: the queue overflows
			b.Changed("t1", "a", i+2)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Changed blocked on a full queue")
	}
	start(t, b)
	select {
	case <-s.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("an overflow did not ask the subscriber to resync")
	}
}

func TestBrokerSlowSubscriberLosesAndResyncs(t *testing.T) {
	l := newLoader(task("t1", "a", 2), task("t1", "b", 2), task("t1", "c", 2))
	b := live.NewBroker(l, live.Options{BufferSize: 1})
	start(t, b)
	slow, fast := subscribe(t, b, "t1", "slow"), subscribe(t, b, "t1", "fast")
	for _, id := range []string{"a", "b", "c"} {
		b.Changed("t1", id, 2)
		next(t, fast) // one at a time, so nothing coalesces
	}
	select {
	case <-slow.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("a full buffer did not signal a loss")
	}
	if ev := next(t, slow); ev.TaskID != "a" {
		t.Fatalf("kept %s, want the first event a", ev.TaskID)
	}
}

func TestBrokerCapsStreamsPerActor(t *testing.T) {
	b := live.NewBroker(newLoader(), live.Options{MaxPerActor: 2})
	first := subscribe(t, b, "t1", "ann")
	subscribe(t, b, "t1", "ann")
	if _, err := b.Subscribe("t1", "ann"); !errors.Is(err, live.ErrTooManySubscriptions) {
		t.Fatalf("third stream: %v, want ErrTooManySubscriptions", err)
	}
	subscribe(t, b, "t1", "bob") // another caller is not affected
	subscribe(t, b, "t2", "ann") // nor the same id in another tenant
	first.Close()
	first.Close() // twice is harmless and frees one slot only
	subscribe(t, b, "t1", "ann")
	if _, err := b.Subscribe("t1", "ann"); !errors.Is(err, live.ErrTooManySubscriptions) {
		t.Fatalf("after one close and one reopen: %v, want ErrTooManySubscriptions", err)
	}
	if got := b.Subscribers(); got != 4 {
		t.Fatalf("%d subscribers, want 4", got)
	}
}

func TestBrokerStopEndsSubscriptions(t *testing.T) {
	b := live.NewBroker(newLoader(), live.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = b.Run(ctx); close(done) }()
	s := subscribe(t, b, "t1", "ann")
	cancel()
	<-done
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("stopping the broker did not end the subscription")
	}
	if _, err := b.Subscribe("t1", "ann"); !errors.Is(err, live.ErrClosed) {
		t.Fatalf("subscribe after stop: %v, want ErrClosed", err)
	}
	if got := b.Subscribers(); got != 0 {
		t.Fatalf("%d subscribers after stop, want 0", got)
	}
}

// memRelay is an in-memory cluster: every published change reaches every listening node.
type memRelay struct {
	mu        sync.Mutex
	listeners []func(live.Change)
	resyncs   []func()
	published atomic.Int32
}

type memNode struct{ r *memRelay }

func (n memNode) Publish(_ context.Context, cs ...live.Change) error {
	n.r.published.Add(int32(len(cs)))
	n.r.mu.Lock()
	defer n.r.mu.Unlock()
	for _, c := range cs {
		for _, deliver := range n.r.listeners {
			deliver(c)
		}
	}
	return nil
}

func (n memNode) Listen(ctx context.Context, deliver func(live.Change), resync func()) error {
	n.r.mu.Lock()
	n.r.listeners = append(n.r.listeners, deliver)
	n.r.resyncs = append(n.r.resyncs, resync)
	n.r.mu.Unlock()
	<-ctx.Done()
	return nil
}

func (r *memRelay) listening() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.listeners)
}

func TestBrokerRelaysAcrossNodes(t *testing.T) {
	l := newLoader(task("t1", "a", 2))
	cluster := &memRelay{}
	nodeA := live.NewBroker(l, live.Options{Relay: memNode{cluster}})
	nodeB := live.NewBroker(l, live.Options{Relay: memNode{cluster}})
	start(t, nodeA)
	start(t, nodeB)
	for deadline := time.Now().Add(5 * time.Second); cluster.listening() < 2; {
		if time.Now().After(deadline) {
			t.Fatal("nodes did not start listening")
		}
		time.Sleep(5 * time.Millisecond)
	}
	onA, onB := subscribe(t, nodeA, "t1", "ann"), subscribe(t, nodeB, "t1", "bob")

	nodeA.Changed("t1", "a", 2)
	if ev := next(t, onB); ev.TaskID != "a" {
		t.Fatalf("node B got %s, want a", ev.TaskID)
	}
	if ev := next(t, onA); ev.TaskID != "a" {
		t.Fatalf("node A got %s, want a (its own change comes back through the relay)", ev.TaskID)
	}
	none(t, onA)
	if got := cluster.published.Load(); got != 1 {
		t.Fatalf("%d published, want 1", got)
	}

	t.Run("RelayResyncReachesStreams", func(t *testing.T) {
		// The nodes registered with the relay in no set order: resync through every
		// listener and expect both nodes' streams to hear it.
		cluster.mu.Lock()
		resyncs := append([]func(){}, cluster.resyncs...)
		cluster.mu.Unlock()
		for _, resync := range resyncs {
			resync()
		}
		for name, sub := range map[string]interface{ Lost() <-chan struct{} }{"A": onA, "B": onB} {
			select {
			case <-sub.Lost():
			case <-time.After(5 * time.Second):
				t.Fatalf("a relay resync did not reach node %s's stream", name)
			}
		}
	})
}
