package stress

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/notify"
	"usertasks/store"
)

// The notify mode's fixture: the static directory of a round's group, the members'
// preferences, a mailer that records instead of sending, and the digest worker's clock.

// notifyGroup is the candidate group of the notify mode's tasks.
const notifyGroup = "stress-notify"

// member is the i-th member of the notify group.
func member(tenant string, i int) models.ParticipantRef {
	return models.ParticipantRef{Tenant: tenant, Provider: models.DefaultProvider, Type: models.UserParticipant, ID: fmt.Sprintf("stress-m%03d", i)}
}

// digestMember reports whether member i collects mail in a daily digest (the second half);
// the first half gets one mail per notification.
func digestMember(i, members int) bool { return i >= members/2 }

// notifyDirectory lists tenant's group of members users, each with an address.
func notifyDirectory(tenant string, members int) directory.Static {
	users := make([]directory.StaticUser, members)
	for i := range users {
		m := member(tenant, i)
		users[i] = directory.StaticUser{ID: m.ID, DisplayName: m.ID, Email: m.ID + "@stress.example", Groups: []string{notifyGroup}}
	}
	return directory.Static{Tenants: map[string]directory.StaticTenant{tenant: {Users: users}}}
}

// setPreferences turns task-available email on for every member (it is off by default) and
// gives the second half a daily digest.
func setPreferences(ctx context.Context, s store.People, tenant string, members int) error {
	for i := range members {
		prefs := models.DefaultNotificationPreferences()
		prefs.Email[models.TriggerTaskAvailable] = true
		if digestMember(i, members) {
			prefs.Digest = models.DigestDaily
		}
		if _, err := s.SetNotificationPreferences(ctx, tenant, member(tenant, i), prefs); err != nil {
			return fmt.Errorf("preferences of %s: %w", member(tenant, i).ID, err)
		}
	}
	return nil
}

// recordingMailer records what it is asked to send, per tenant.
type recordingMailer struct {
	mu      sync.Mutex
	sent    map[string]int // tenant → single mails
	once    map[string]int // notification id → mails of it
	digests map[string]int // tenant → digest mails
	items   map[string]int // tenant → rows in digests
}

func newRecordingMailer() *recordingMailer {
	return &recordingMailer{sent: map[string]int{}, once: map[string]int{}, digests: map[string]int{}, items: map[string]int{}}
}

// Send records one mail; the address must be the directory's for the recipient.
func (m *recordingMailer) Send(_ context.Context, to notify.Recipient, n models.Notification, _ notify.Task) error {
	if !strings.HasPrefix(to.Address, n.Recipient.ID+"@") {
		return fmt.Errorf("stress: mail for %s to the wrong address", n.Recipient.ID)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent[n.Tenant]++
	m.once[n.ID]++
	return nil
}

// SendDigest records one digest and its rows.
func (m *recordingMailer) SendDigest(_ context.Context, to notify.Recipient, _ models.DigestPeriod, items []notify.Item) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.digests[to.Person.Tenant]++
	m.items[to.Person.Tenant] += len(items)
	return nil
}

// repeats counts the notifications mailed more than once.
func (m *recordingMailer) repeats() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.once {
		if c > 1 {
			n++
		}
	}
	return n
}

func (m *recordingMailer) counts(tenant string) (sent, digests, items int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent[tenant], m.digests[tenant], m.items[tenant]
}

// laterClock is the digest worker's store with a clock moved ahead by skip: a daily digest
// is due once its day has ended, and the run does not wait a day for it.
type laterClock struct {
	notify.DigestStore
	skip time.Duration
}

func (c laterClock) Now(ctx context.Context) (time.Time, error) {
	now, err := c.DigestStore.Now(ctx)
	return now.Add(c.skip), err
}
