package notify_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
	"usertasks/testfactory"
)

// countingStore counts the worker's store writes in flight at once. With meet set, the first
// write waits (a few seconds at most) until a second one is in flight, so an ungated worker
// shows its overlap whatever the scheduler does.
type countingStore struct {
	store.Store
	meet bool

	mu       sync.Mutex
	inFlight int
	most     int
	second   chan struct{}
	once     sync.Once
}

func (c *countingStore) enter() {
	c.mu.Lock()
	c.inFlight++
	c.most = max(c.most, c.inFlight)
	n := c.inFlight
	c.mu.Unlock()
	if !c.meet {
		return
	}
	if n >= 2 {
		c.once.Do(func() { close(c.second) })
		return
	}
	select {
	case <-c.second:
	case <-time.After(5 * time.Second):
	}
}

func (c *countingStore) leave() {
	c.mu.Lock()
	c.inFlight--
	c.mu.Unlock()
}

func (c *countingStore) SettleNotification(ctx context.Context, n models.Notification, out models.NotificationOutcome) error {
	c.enter()
	defer c.leave()
	return c.Store.SettleNotification(ctx, n, out)
}

func (c *countingStore) ExpandNotification(ctx context.Context, group models.Notification, members []models.Notification) (int, error) {
	c.enter()
	defer c.leave()
	return c.Store.ExpandNotification(ctx, group, members)
}

// The worker handles 8 rows at a time but keeps at most Writes store writes in flight (by
// default one: SQLite's single writer is shared with the requests the node answers), and
// still delivers every row exactly once. Without the bound, its writes overlap.
func TestDeliverBoundsItsWrites(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes int
		most   func(int) bool
	}{
		{"DefaultOne", 0, func(n int) bool { return n == 1 }},
		{"Two", 2, func(n int) bool { return n >= 1 && n <= 2 }},
		{"Unbounded", 8, func(n int) bool { return n > 1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := sqliteStore(t)
			for range 3 {
				project(t, s, testfactory.TaskOpts{Groups: []string{"big"}})
			}
			counting := &countingStore{Store: s, meet: c.writes == 8, second: make(chan struct{})}
			hook := newHookServer(t)
			d := newDeliverer(counting, "node-a", notify.Options{Directory: ntDirectory(), Webhook: hook.webhook(t), Parallel: 8, Writes: c.writes})
			got := total(runIdle(t, d))
			if got.Expanded != 3 || got.Shown != 150 || got.Webhook != 150 {
				t.Fatalf("counts %+v, want 3 groups expanded, 150 rows shown and sent", got)
			}
			if !c.most(counting.most) {
				t.Fatalf("%d writes in flight at once", counting.most)
			}
			for k, n := range hook.keys() {
				if n != 1 {
					t.Fatalf("notification %s sent %d times", k, n)
				}
			}
		})
	}
}
