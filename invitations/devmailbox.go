package invitations

import (
	"context"
	"sync"
	"time"
)

// DevMailboxSize bounds the dev mailbox: older messages fall out.
const DevMailboxSize = 200

// DevMailbox is the dev-mode dispatcher: it keeps sent invitations in memory, newest first,
// for the /dev/mailbox page. Nothing reaches a table, so no raw token is ever stored; a
// restart empties it. Never wire it outside dev mode: it shows every link to whoever can
// open the page.
type DevMailbox struct {
	mu   sync.Mutex
	msgs []MailboxEntry // oldest first; at most size
	size int
	now  func() time.Time
}

// MailboxEntry is one message in the dev mailbox.
type MailboxEntry struct {
	Message
	SentAt time.Time
}

// NewDevMailbox builds an empty mailbox holding at most size messages (DevMailboxSize when
// size ≤ 0).
func NewDevMailbox(size int) *DevMailbox {
	if size <= 0 {
		size = DevMailboxSize
	}
	return &DevMailbox{size: size, now: time.Now}
}

// Dispatch keeps m.
func (b *DevMailbox) Dispatch(_ context.Context, m Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.msgs) == b.size {
		copy(b.msgs, b.msgs[1:])
		b.msgs = b.msgs[:b.size-1]
	}
	b.msgs = append(b.msgs, MailboxEntry{Message: m, SentAt: b.now().UTC()})
	return nil
}

// Messages returns the kept messages of tenant, newest first.
func (b *DevMailbox) Messages(tenant string) []MailboxEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []MailboxEntry
	for i := len(b.msgs) - 1; i >= 0; i-- {
		if b.msgs[i].Tenant == tenant {
			out = append(out, b.msgs[i])
		}
	}
	return out
}
