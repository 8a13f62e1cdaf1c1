package notify_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/notify"
)

func tokensOf(t testing.TB, r *keyring.Keyring) *notify.UnsubscribeTokens {
	t.Helper()
	k, err := notify.NewUnsubscribeTokens(r)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestUnsubscribeTokenRoundTrip(t *testing.T) {
	k := tokensOf(t, ring(t, "k1"))
	for _, u := range []notify.Unsubscription{
		{Tenant: "t1", User: models.ParticipantRef{Provider: "oidc", ID: "ada"}, Trigger: models.TriggerTaskAssigned},
		{Tenant: "t1", User: models.ParticipantRef{Provider: "oidc", ID: "ada"}}, // the digest
		{Tenant: "tenant /?#", User: models.ParticipantRef{Provider: "", ID: "Jürgen Müller/?#&=x y"}, Trigger: models.TriggerReturned},
	} {
		tok, err := k.Token(u)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(tok, "/?#&=+ %") {
			t.Errorf("token %q needs escaping in a URL", tok)
		}
		got, err := k.Parse(tok)
		if err != nil || got.Tenant != u.Tenant || got.User.Provider != u.User.Provider || got.User.ID != u.User.ID ||
			got.Trigger != u.Trigger || got.User.Type != models.UserParticipant || got.Digest() != (u.Trigger == "") {
			t.Errorf("%+v: parsed %+v (%v)", u, got, err)
		}
	}
}

// TestUnsubscribeTokenRefusals: an altered, truncated, re-versioned or foreign token, and one
// under a key that left the ring, are all the same ErrBadUnsubscribe (a 404 page).
func TestUnsubscribeTokenRefusals(t *testing.T) {
	r := ring(t, "k1")
	k := tokensOf(t, r)
	u := notify.Unsubscription{Tenant: "t1", User: models.ParticipantRef{Provider: "oidc", ID: "ada"}, Trigger: models.TriggerTaskAssigned}
	tok, _ := k.Token(u)
	other, _ := tokensOf(t, ring(t, "k1")).Token(u) // same key id, another key
	grace := u
	grace.User.ID = "grace"
	graceTok, _ := k.Token(grace)
	parts := strings.Split(tok, ".")
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	for name, bad := range map[string]string{
		"Empty":          "",
		"PayloadAltered": parts[0] + "." + flip(parts[1], 5) + "." + parts[2],
		"MACAltered":     parts[0] + "." + parts[1] + "." + flip(parts[2], 3),
		"MACShort":       parts[0] + "." + parts[1] + "." + parts[2][:10],
		"SwappedMAC":     parts[0] + "." + parts[1] + "." + strings.Split(graceTok, ".")[2],
		"OtherVersion":   "u2." + parts[1] + "." + parts[2],
		"NoMAC":          parts[0] + "." + parts[1],
		"OtherKey":       other,
		"Padded":         tok + "=",
		"Spaces":         " " + tok,
		"TooLong":        tok + strings.Repeat("A", 2000),
		"Hostile":        "u1./?#..%00",
	} {
		if _, err := k.Parse(bad); !errors.Is(err, notify.ErrBadUnsubscribe) || !errors.Is(err, models.ErrNotFound) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	t.Run("RefusedToMake", func(t *testing.T) {
		for name, u := range map[string]notify.Unsubscription{
			"Guest":          {Tenant: "t1", User: models.GuestRef("t1", "inv-1"), Trigger: models.TriggerTaskAssigned},
			"Group":          {Tenant: "t1", User: models.ParticipantRef{Type: models.GroupParticipant, ID: "g"}, Trigger: models.TriggerTaskAssigned},
			"UnknownTrigger": {Tenant: "t1", User: models.ParticipantRef{ID: "ada"}, Trigger: "task-exploded"},
			"NoTenant":       {User: models.ParticipantRef{ID: "ada"}, Trigger: models.TriggerTaskAssigned},
			"IDTooLong":      {Tenant: "t1", User: models.ParticipantRef{ID: strings.Repeat("x", 256)}, Trigger: models.TriggerTaskAssigned},
		} {
			if tok, err := k.Token(u); err == nil {
				t.Errorf("%s: made %q", name, tok)
			}
		}
	})
}

// TestUnsubscribeTokenRotation: a token made under the old key still works while that key is
// in the ring (new tokens use the new one), and no longer once the key is gone.
func TestUnsubscribeTokenRotation(t *testing.T) {
	s0, _ := keyring.Generate("k0")
	s1, _ := keyring.Generate("k1")
	old, _ := keyring.Parse(s0)
	rotated, _ := keyring.Parse(s1 + "," + s0)
	gone, _ := keyring.Parse(s1)
	u := notify.Unsubscription{Tenant: "t1", User: models.ParticipantRef{Provider: "oidc", ID: "ada"}, Trigger: models.TriggerOverdue}
	tok, _ := tokensOf(t, old).Token(u)
	if _, err := tokensOf(t, rotated).Parse(tok); err != nil {
		t.Fatalf("rotated ring: %v", err)
	}
	if _, err := tokensOf(t, gone).Parse(tok); !errors.Is(err, notify.ErrBadUnsubscribe) {
		t.Fatalf("ring without the key: %v", err)
	}
	if newTok, _ := tokensOf(t, rotated).Token(u); newTok == tok {
		t.Fatal("the rotated ring signs with the old key")
	}
}

// people is an in-memory notify.PeopleStore.
type people struct {
	mu  sync.Mutex
	set map[string]models.Person
}

func (p *people) key(tenant string, u models.ParticipantRef) string {
	return tenant + "\x00" + u.Provider + "\x00" + u.ID
}

func (p *people) Person(_ context.Context, tenant string, u models.ParticipantRef) (models.Person, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	got, ok := p.set[p.key(tenant, u)]
	if !ok {
		return models.Person{}, models.ErrNotFound
	}
	got.Preferences = got.Preferences.Complete()
	return got, nil
}

func (p *people) SetNotificationPreferences(_ context.Context, tenant string, u models.ParticipantRef, prefs models.NotificationPreferences) (models.Person, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.set == nil {
		p.set = map[string]models.Person{}
	}
	got, ok := p.set[p.key(tenant, u)]
	if !ok {
		got = models.Person{Tenant: tenant, User: u}
	}
	got.Preferences = prefs
	p.set[p.key(tenant, u)] = got
	return got, nil
}

func TestUnsubscriberApply(t *testing.T) {
	ctx := context.Background()
	k := tokensOf(t, ring(t, "k1"))
	adaRef := models.ParticipantRef{Provider: "oidc", Type: models.UserParticipant, ID: "ada"}
	store := &people{set: map[string]models.Person{}}
	prefs := models.DefaultNotificationPreferences()
	prefs.Email[models.TriggerTaskAvailable] = true
	prefs.Digest = models.DigestDaily
	store.set[store.key("t1", adaRef)] = models.Person{Tenant: "t1", User: adaRef, Language: "de", Preferences: prefs}
	// Another tenant has a person with the same id.
	store.set[store.key("t2", adaRef)] = models.Person{Tenant: "t2", User: adaRef, Preferences: prefs}
	s := notify.NewUnsubscriber(k, store)
	assigned, _ := k.Token(notify.Unsubscription{Tenant: "t1", User: adaRef, Trigger: models.TriggerTaskAssigned})

	t.Run("LookupChangesNothing", func(t *testing.T) {
		got, err := s.Lookup(ctx, assigned)
		if err != nil || got.Off || got.Language != "de" || got.Trigger != models.TriggerTaskAssigned {
			t.Fatalf("lookup %+v (%v)", got, err)
		}
		if p, _ := store.Person(ctx, "t1", adaRef); !p.Preferences.EmailOn(models.TriggerTaskAssigned) {
			t.Fatal("a lookup turned the email off")
		}
	})
	t.Run("TriggerOff", func(t *testing.T) {
		got, err := s.Apply(ctx, assigned)
		if err != nil || !got.Off {
			t.Fatalf("apply %+v (%v)", got, err)
		}
		p, _ := store.Person(ctx, "t1", adaRef)
		if p.Preferences.EmailOn(models.TriggerTaskAssigned) || !p.Preferences.EmailOn(models.TriggerTaskAvailable) ||
			!p.Preferences.EmailOn(models.TriggerOverdue) || p.Preferences.Digest != models.DigestDaily {
			t.Fatalf("preferences %+v: only task-assigned should be off", p.Preferences)
		}
		if other, _ := store.Person(ctx, "t2", adaRef); !other.Preferences.EmailOn(models.TriggerTaskAssigned) {
			t.Fatal("another tenant's person with the same id was unsubscribed")
		}
		if again, err := s.Apply(ctx, assigned); err != nil || !again.Off {
			t.Fatalf("a second apply %+v (%v)", again, err)
		}
	})
	t.Run("DigestOffAndEveryEmail", func(t *testing.T) {
		digest, _ := k.Token(notify.Unsubscription{Tenant: "t1", User: adaRef})
		if _, err := s.Apply(ctx, digest); err != nil {
			t.Fatal(err)
		}
		p, _ := store.Person(ctx, "t1", adaRef)
		if p.Preferences.Digest != models.DigestOff {
			t.Fatalf("digest %q", p.Preferences.Digest)
		}
		for _, tr := range models.NotificationTriggers {
			if p.Preferences.EmailOn(tr) {
				t.Errorf("email for %s still on", tr)
			}
		}
	})
	t.Run("UnknownPersonGetsARecord", func(t *testing.T) {
		stranger := models.ParticipantRef{Provider: "static", Type: models.UserParticipant, ID: "never-signed-in"}
		tok, _ := k.Token(notify.Unsubscription{Tenant: "t1", User: stranger, Trigger: models.TriggerOverdue})
		if got, err := s.Lookup(ctx, tok); err != nil || got.Off || got.Language != "" {
			t.Fatalf("lookup %+v (%v)", got, err)
		}
		if _, err := s.Apply(ctx, tok); err != nil {
			t.Fatal(err)
		}
		p, err := store.Person(ctx, "t1", stranger)
		if err != nil || p.Preferences.EmailOn(models.TriggerOverdue) || !p.Preferences.EmailOn(models.TriggerTaskAssigned) {
			t.Fatalf("person %+v (%v)", p, err)
		}
	})
	t.Run("BadToken", func(t *testing.T) {
		if _, err := s.Apply(ctx, assigned[:len(assigned)-2]+"xx"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})
}
