package storekit

import (
	"sync/atomic"

	"usertasks/models"
)

// Notifier holds a store's change notifier (models.ChangeNotifier), swapped atomically while
// the store is in use: the workers it wakes are built after the store. The zero Notifier tells
// nobody.
type Notifier struct{ p atomic.Pointer[notifierRef] }

// notifierRef boxes the interface for the atomic pointer.
type notifierRef struct{ n models.ChangeNotifier }

// Set makes the store tell n about its changes; nil stops the notifications.
func (c *Notifier) Set(n models.ChangeNotifier) {
	if n == nil {
		c.p.Store(nil)
		return
	}
	c.p.Store(&notifierRef{n: n})
}

// Changed tells the notifier, if any, about one committed change of a task.
func (c *Notifier) Changed(tenant, taskID string, revision int) {
	if ref := c.p.Load(); ref != nil {
		ref.n.Changed(tenant, taskID, revision)
	}
}

// Hook holds a function a store calls after certain commits (NotifyDeliveries), swapped
// atomically like Notifier. The zero Hook calls nothing.
type Hook struct{ p atomic.Pointer[func()] }

// Set makes Call call fn; nil stops it.
func (h *Hook) Set(fn func()) {
	if fn == nil {
		h.p.Store(nil)
		return
	}
	h.p.Store(&fn)
}

// Call calls the function, if any. Call it only after the commit.
func (h *Hook) Call() {
	if fn := h.p.Load(); fn != nil {
		(*fn)()
	}
}
