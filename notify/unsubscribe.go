package notify

import (
	"context"
	"errors"

	"usertasks/models"
)

// PeopleStore is what unsubscribing needs from the store.
type PeopleStore interface {
	Person(ctx context.Context, tenant string, user models.ParticipantRef) (models.Person, error)
	SetNotificationPreferences(ctx context.Context, tenant string, user models.ParticipantRef, prefs models.NotificationPreferences) (models.Person, error)
}

// Unsubscriber serves the one-click unsubscribe link (handlers/notify_unsubscribe.go).
type Unsubscriber struct {
	tokens *UnsubscribeTokens
	people PeopleStore
}

// NewUnsubscriber builds the service over the tokens and the people's preferences.
func NewUnsubscriber(tokens *UnsubscribeTokens, people PeopleStore) *Unsubscriber {
	return &Unsubscriber{tokens: tokens, people: people}
}

// Unsubscribe is what an unsubscribe page shows: what the token unsubscribes, in whose
// language, and whether it is off already.
type Unsubscribe struct {
	Unsubscription
	Language string // the person's recorded language; "" when the product never saw them
	Off      bool   // that email (the digest: every notification email) is off already
}

// Lookup checks token and says what it would turn off, changing nothing (the page behind the
// link's GET: mail scanners open links, so a GET must never unsubscribe). A bad token is
// ErrBadUnsubscribe.
func (s *Unsubscriber) Lookup(ctx context.Context, token string) (Unsubscribe, error) {
	u, err := s.tokens.Parse(token)
	if err != nil {
		return Unsubscribe{}, err
	}
	p, err := s.person(ctx, u)
	if err != nil {
		return Unsubscribe{}, err
	}
	return Unsubscribe{Unsubscription: u, Language: p.Language, Off: isOff(u, p.Preferences)}, nil
}

// Apply turns off what token names: a trigger's email, or for a digest's token the digest and
// every trigger's email — whoever leaves the digest does not want each notification mailed
// instead. In-app notifications stay (they cannot be turned off). Applying twice is harmless.
func (s *Unsubscriber) Apply(ctx context.Context, token string) (Unsubscribe, error) {
	u, err := s.tokens.Parse(token)
	if err != nil {
		return Unsubscribe{}, err
	}
	p, err := s.person(ctx, u)
	if err != nil {
		return Unsubscribe{}, err
	}
	prefs := p.Preferences.Complete()
	if !isOff(u, prefs) {
		if u.Digest() {
			prefs.Digest = models.DigestOff
			for t := range prefs.Email {
				prefs.Email[t] = false
			}
		} else {
			prefs.Email[u.Trigger] = false
		}
		if p, err = s.people.SetNotificationPreferences(ctx, u.Tenant, u.User, prefs); err != nil {
			return Unsubscribe{}, err
		}
	}
	return Unsubscribe{Unsubscription: u, Language: p.Language, Off: true}, nil
}

// person is the recorded person of u, or one with the defaults when there is no record (a
// person mailed through the directory's address may never have signed in).
func (s *Unsubscriber) person(ctx context.Context, u Unsubscription) (models.Person, error) {
	p, err := s.people.Person(ctx, u.Tenant, u.User)
	if errors.Is(err, models.ErrNotFound) {
		return models.Person{Tenant: u.Tenant, User: u.User, Preferences: models.DefaultNotificationPreferences()}, nil
	}
	p.Preferences = p.Preferences.Complete()
	return p, err
}

// isOff reports whether what u names is off already.
func isOff(u Unsubscription, prefs models.NotificationPreferences) bool {
	if !u.Digest() {
		return !prefs.EmailOn(u.Trigger)
	}
	if prefs.Digest != models.DigestOff {
		return false
	}
	for _, t := range models.NotificationTriggers {
		if prefs.EmailOn(t) {
			return false
		}
	}
	return true
}
