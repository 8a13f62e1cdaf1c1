package handlers

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// Who the product knows (SPEC 10.3): every authenticated request records its user per tenant
// (display name, email claim, language, time zone, manager) for the notifications, at most
// once a minute per user. An in-memory throttle in front keeps most requests from reaching the
// store at all; the store's own check (RecordPerson's every) keeps the nodes of a cluster
// to about one write a minute between them. Recording never fails a request.

// peopleRecorder records the people behind requests.
type peopleRecorder struct {
	store store.People
	log   *slog.Logger
	now   func() time.Time

	mu   sync.Mutex
	seen map[string]time.Time // person key → when this node last passed them to the store

	failing atomic.Bool // a store error was logged; cleared by the next success
}

// maxRememberedPeople bounds the throttle's memory; over it, entries older than the interval
// are forgotten (and all of them if that is not enough: it only costs writes).
const maxRememberedPeople = 50_000

// recordTimeout bounds the store calls of one recording, so a slow store delays a request by
// little.
const recordTimeout = 2 * time.Second

func newPeopleRecorder(s store.People, log *slog.Logger, now func() time.Time) *peopleRecorder {
	if log == nil {
		log = slog.Default()
	}
	if now == nil {
		now = time.Now
	}
	return &peopleRecorder{store: s, log: log, now: now, seen: map[string]time.Time{}}
}

// visit records a's request: language and zone are the page's ("" keeps what is recorded, as
// does an actor without an email claim: a browser session or a token without one).
func (r *peopleRecorder) visit(ctx context.Context, a models.Actor, language, zone string) {
	if r == nil {
		return
	}
	who, err := recipientOf(a)
	if err != nil {
		return // guests and the system are nobody to notify
	}
	if !r.due(who.Key()) {
		return
	}
	r.write(ctx, a, who, language, zone, models.PersonRecordEvery)
}

// signedIn records a sign-in at once, past the throttle: it carries the email claim a
// browser session does not keep.
func (r *peopleRecorder) signedIn(ctx context.Context, a models.Actor, language, zone string) {
	if r == nil {
		return
	}
	who, err := recipientOf(a)
	if err != nil {
		return
	}
	r.mu.Lock()
	r.seen[who.Key()] = r.now()
	r.mu.Unlock()
	r.write(ctx, a, who, language, zone, 0)
}

// due reports whether key was not passed to the store within the interval, and marks it.
func (r *peopleRecorder) due(key string) bool {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if last, ok := r.seen[key]; ok && now.Sub(last) < models.PersonRecordEvery && !now.Before(last) {
		return false
	}
	if len(r.seen) >= maxRememberedPeople {
		for k, at := range r.seen {
			if now.Sub(at) >= models.PersonRecordEvery {
				delete(r.seen, k)
			}
		}
		if len(r.seen) >= maxRememberedPeople {
			clear(r.seen)
		}
	}
	r.seen[key] = now
	return true
}

// write stores the person unless the store's record is younger than every (0 always writes). Blank fields take the recorded values.
func (r *peopleRecorder) write(ctx context.Context, a models.Actor, who models.ParticipantRef, language, zone string, every time.Duration) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	p := models.Person{Tenant: a.Tenant, User: who, Email: a.Email, Language: language, TimeZone: zone, Manager: a.Manager, SeenAt: r.now().UTC()}
	p.User.DisplayName = firstNonEmpty(a.DisplayName, a.Subject.DisplayName)
	if p.Email == "" || p.Language == "" || p.TimeZone == "" {
		old, err := r.store.Person(ctx, a.Tenant, who)
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			r.failed(err)
			return
		}
		p.Email = firstNonEmpty(p.Email, old.Email)
		p.Language = firstNonEmpty(p.Language, old.Language, "en")
		p.TimeZone = firstNonEmpty(p.TimeZone, old.TimeZone)
	}
	if _, err := r.store.RecordPerson(ctx, p, every); err != nil {
		r.failed(err)
		return
	}
	r.failing.Store(false)
}

// failed logs a store error once until recording works again. Only the error: never the
// person's name or address.
func (r *peopleRecorder) failed(err error) {
	if r.failing.CompareAndSwap(false, true) {
		r.log.Warn("people: recording a signed-in user failed (requests go on; logged once until it works again)", "error", err.Error())
	}
}
