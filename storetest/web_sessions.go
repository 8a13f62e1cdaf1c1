package storetest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
)

// WebSessionOpts tune a web session made by CreateWebSession.
type WebSessionOpts struct {
	Tenant, Provider, Subject string
	IdleTimeout               time.Duration // default 30 minutes
	Lifetime                  time.Duration // default 8 hours
	RefreshToken, IDToken     string        // either makes an OIDC session
}

// CreateWebSession stores a session with a fresh random id hash and returns it.
func CreateWebSession(t *testing.T, s store.Store, o *WebSessionOpts) models.WebSession {
	t.Helper()
	if o == nil {
		o = &WebSessionOpts{}
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	sum := sha256.Sum256(raw)
	ws := models.WebSession{
		IDHash: hex.EncodeToString(sum[:]),
		WebIdentity: models.WebIdentity{Tenant: firstOr(o.Tenant, "t1"), Provider: firstOr(o.Provider, models.DefaultProvider),
			Subject: firstOr(o.Subject, "ann"), DisplayName: "Ann Approver", Groups: []string{"finance", "ops"},
			Permissions: []string{"user-tasks:*"}},
		Via: models.WebViaDev, IdleTimeout: 30 * time.Minute, RefreshToken: o.RefreshToken, IDToken: o.IDToken,
	}
	if o.RefreshToken != "" || o.IDToken != "" {
		ws.Via = models.WebViaOIDC
	}
	if o.IdleTimeout > 0 {
		ws.IdleTimeout = o.IdleTimeout
	}
	lifetime := 8 * time.Hour
	if o.Lifetime > 0 {
		lifetime = o.Lifetime
	}
	got, err := s.CreateWebSession(ctx(t), ws, lifetime)
	if err != nil {
		t.Fatalf("create web session: %v", err)
	}
	return got
}

func firstOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func mustWebSession(t *testing.T, s store.Store, idHash string) models.WebSession {
	t.Helper()
	ws, err := s.WebSession(ctx(t), idHash)
	if err != nil {
		t.Fatalf("web session: %v", err)
	}
	return ws
}

func wantNoWebSession(t *testing.T, s store.Store, idHash string) {
	t.Helper()
	if ws, err := s.WebSession(ctx(t), idHash); !errorsIsNotFound(err) {
		t.Fatalf("web session: %+v, %v; want not found", ws, err)
	}
}

func errorsIsNotFound(err error) bool { return models.ErrorCode(err) == models.CodeNotFound }

func testWebSessions(t *testing.T, h Harness) {
	clock := &testfactory.Clock{}
	s := h.open(t, Options{Clock: clock.Now})

	t.Run("RoundTrip", func(t *testing.T) {
		ws := CreateWebSession(t, s, &WebSessionOpts{RefreshToken: "rt-secret-123", IDToken: "idt-secret-456"})
		got := mustWebSession(t, s, ws.IDHash)
		if got.Tenant != "t1" || got.Provider != models.DefaultProvider || got.Subject != "ann" || got.DisplayName != "Ann Approver" ||
			!slices.Equal(got.Groups, []string{"finance", "ops"}) || !slices.Equal(got.Permissions, []string{"user-tasks:*"}) ||
			got.Manager || got.Via != models.WebViaOIDC || got.RefreshToken != "rt-secret-123" || got.IDToken != "idt-secret-456" || got.TimeZone != "" || got.IdleTimeout != 30*time.Minute {
			t.Fatalf("read back %+v", got)
		}
		if !got.ExpiresAt.Equal(got.CreatedAt.Add(8*time.Hour)) || !got.IdleExpiresAt.Equal(got.CreatedAt.Add(30*time.Minute)) ||
			!got.RefreshedAt.Equal(got.CreatedAt) || got.Now.Before(got.CreatedAt) {
			t.Fatalf("times: created %v expires %v idle %v refreshed %v now %v", got.CreatedAt, got.ExpiresAt, got.IdleExpiresAt, got.RefreshedAt, got.Now)
		}
		if n := h.containing(t, s, "user_task_web_sessions", "refresh_token_enc", "rt-secret-123") +
			h.containing(t, s, "user_task_web_sessions", "id_token_enc", "idt-secret-456"); n != 0 {
			t.Fatal("a token is stored in plain text")
		}
		if n := h.records(t, s, "user_task_web_sessions", map[string]any{"id_hash": ws.IDHash}); n != 1 {
			t.Fatalf("%d rows under the id hash", n)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, id := range []string{"", "unknown", strings.Repeat("0", 64), "' OR '1'='1", "%", strings.Repeat("a", 5000)} {
			wantNoWebSession(t, s, id)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		ws := models.WebSession{IDHash: "not-hex", WebIdentity: models.WebIdentity{Tenant: "t1", Provider: "default", Subject: "ann"},
			Via: models.WebViaDev, IdleTimeout: time.Minute}
		if _, err := s.CreateWebSession(ctx(t), ws, time.Hour); err == nil {
			t.Fatal("a malformed id hash was stored")
		}
		ws.IDHash = strings.Repeat("ab", 32)
		ws.Subject = strings.Repeat("x", models.MaxParticipantIDLength+1)
		wantCode(t, func() error { _, err := s.CreateWebSession(ctx(t), ws, time.Hour); return err }(), models.CodeValidationFailed)
		ws.Subject, ws.Via = "ann", "password"
		if _, err := s.CreateWebSession(ctx(t), ws, time.Hour); err == nil {
			t.Fatal("an unknown sign-in kind was stored")
		}
	})
	t.Run("TouchAtMostOnceAMinute", func(t *testing.T) {
		ws := CreateWebSession(t, s, nil)
		clock.Advance(30 * time.Second)
		if got := mustWebSession(t, s, ws.IDHash); !got.LastSeenAt.Equal(ws.LastSeenAt) {
			t.Fatalf("last seen moved after 30 s: %v → %v", ws.LastSeenAt, got.LastSeenAt)
		}
		clock.Advance(45 * time.Second)
		got := mustWebSession(t, s, ws.IDHash)
		if !got.LastSeenAt.After(ws.LastSeenAt) || !got.IdleExpiresAt.Equal(got.LastSeenAt.Add(30*time.Minute)) {
			t.Fatalf("after 75 s: last seen %v (was %v), idle expiry %v", got.LastSeenAt, ws.LastSeenAt, got.IdleExpiresAt)
		}
		again := mustWebSession(t, s, ws.IDHash)
		if !again.LastSeenAt.Equal(got.LastSeenAt) {
			t.Fatal("a second read within the minute wrote again")
		}
	})
	t.Run("ConcurrentTouches", func(t *testing.T) {
		ws := CreateWebSession(t, s, nil)
		clock.Advance(2 * time.Minute)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.WebSession(ctx(t), ws.IDHash); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	})
	t.Run("IdleTimeout", func(t *testing.T) {
		ws := CreateWebSession(t, s, &WebSessionOpts{IdleTimeout: 5 * time.Minute})
		clock.Advance(4 * time.Minute)
		mustWebSession(t, s, ws.IDHash) // touched: idle until 9 minutes
		clock.Advance(4 * time.Minute)
		mustWebSession(t, s, ws.IDHash)
		clock.Advance(5*time.Minute + time.Second)
		wantNoWebSession(t, s, ws.IDHash)
		if err := s.SetWebSessionTimeZone(ctx(t), ws.IDHash, "Europe/Berlin"); !errorsIsNotFound(err) {
			t.Fatalf("time zone on an idle session: %v", err)
		}
	})
	t.Run("AbsoluteExpiry", func(t *testing.T) {
		ws := CreateWebSession(t, s, &WebSessionOpts{Lifetime: 10 * time.Minute, IdleTimeout: 30 * time.Minute})
		if !ws.IdleExpiresAt.Equal(ws.ExpiresAt) {
			t.Fatalf("idle expiry %v beyond the absolute %v", ws.IdleExpiresAt, ws.ExpiresAt)
		}
		for range 4 {
			clock.Advance(2 * time.Minute)
			mustWebSession(t, s, ws.IDHash)
		}
		clock.Advance(2*time.Minute + time.Second)
		wantNoWebSession(t, s, ws.IDHash)
	})
	t.Run("Delete", func(t *testing.T) {
		ws, other := CreateWebSession(t, s, nil), CreateWebSession(t, s, nil)
		if err := s.DeleteWebSession(ctx(t), ws.IDHash); err != nil {
			t.Fatal(err)
		}
		wantNoWebSession(t, s, ws.IDHash)
		mustWebSession(t, s, other.IDHash)
		if err := s.DeleteWebSession(ctx(t), ws.IDHash); err != nil {
			t.Fatalf("deleting a deleted session: %v", err)
		}
	})
	t.Run("End", func(t *testing.T) {
		ws, other := CreateWebSession(t, s, &WebSessionOpts{RefreshToken: "rt-end", IDToken: "idt-end"}), CreateWebSession(t, s, nil)
		clock.Advance(9 * time.Hour) // past its expiry: the refresh token may still be good at the provider
		got, err := s.EndWebSession(ctx(t), ws.IDHash)
		if err != nil || got.IDHash != ws.IDHash || got.Via != models.WebViaOIDC || got.RefreshToken != "rt-end" || got.IDToken != "idt-end" || got.Subject != "ann" {
			t.Fatalf("ended %+v, %v", got, err)
		}
		if _, err := s.EndWebSession(ctx(t), ws.IDHash); !errorsIsNotFound(err) {
			t.Fatalf("ending an ended session: %v", err)
		}
		if got, err := s.EndWebSession(ctx(t), other.IDHash); err != nil || got.RefreshToken != "" || got.IDToken != "" || got.Via != models.WebViaDev {
			t.Fatalf("ended dev session %+v, %v", got, err)
		}
	})
	t.Run("EndSubject", func(t *testing.T) {
		subject := "zoe-" + models.NewID()
		mine := []models.WebSession{
			CreateWebSession(t, s, &WebSessionOpts{Subject: subject, RefreshToken: "rt-laptop"}),
			CreateWebSession(t, s, &WebSessionOpts{Subject: subject, RefreshToken: "rt-phone", IDToken: "idt-phone"}),
		}
		others := []models.WebSession{
			CreateWebSession(t, s, &WebSessionOpts{Subject: subject, Tenant: "t2"}),
			CreateWebSession(t, s, &WebSessionOpts{Subject: subject, Provider: "corp-ad"}),
			CreateWebSession(t, s, &WebSessionOpts{Subject: subject + "x"}),
		}
		ended, err := s.EndSubjectWebSessions(ctx(t), "t1", models.DefaultProvider, subject)
		if err != nil || len(ended) != 2 {
			t.Fatalf("ended %d, %v; want 2", len(ended), err)
		}
		var tokens []string
		for _, ws := range ended {
			tokens = append(tokens, ws.RefreshToken+"/"+ws.IDToken)
		}
		if slices.Sort(tokens); !slices.Equal(tokens, []string{"rt-laptop/", "rt-phone/idt-phone"}) {
			t.Fatalf("the ended sessions' tokens %q", tokens)
		}
		for _, ws := range mine {
			wantNoWebSession(t, s, ws.IDHash)
		}
		for _, ws := range others {
			mustWebSession(t, s, ws.IDHash)
		}
	})
	t.Run("TimeZone", func(t *testing.T) {
		ws := CreateWebSession(t, s, nil)
		if err := s.SetWebSessionTimeZone(ctx(t), ws.IDHash, "America/Argentina/ComodRivadavia"); err != nil {
			t.Fatal(err)
		}
		if got := mustWebSession(t, s, ws.IDHash).TimeZone; got != "America/Argentina/ComodRivadavia" {
			t.Fatalf("time zone %q", got)
		}
		wantCode(t, s.SetWebSessionTimeZone(ctx(t), ws.IDHash, strings.Repeat("A", models.MaxTimeZoneLength+1)), models.CodeValidationFailed)
		wantCode(t, s.SetWebSessionTimeZone(ctx(t), ws.IDHash, ""), models.CodeValidationFailed)
		if err := s.SetWebSessionTimeZone(ctx(t), strings.Repeat("0", 64), "UTC"); !errorsIsNotFound(err) {
			t.Fatalf("time zone of an unknown session: %v", err)
		}
	})
	t.Run("UpdateIdentity", func(t *testing.T) {
		ws := CreateWebSession(t, s, &WebSessionOpts{RefreshToken: "rt-1"})
		clock.Advance(6 * time.Minute)
		id := ws.WebIdentity
		id.Groups, id.Permissions, id.Manager, id.DisplayName = nil, []string{"user-tasks:view", "user-tasks:supervise"}, true, "Ann A."
		if err := s.UpdateWebSessionIdentity(ctx(t), ws.IDHash, id, models.WebTokens{}); err != nil {
			t.Fatal(err)
		}
		got := mustWebSession(t, s, ws.IDHash)
		if len(got.Groups) != 0 || !slices.Equal(got.Permissions, id.Permissions) || !got.Manager || got.DisplayName != "Ann A." ||
			got.RefreshToken != "rt-1" || got.RefreshedAt.Sub(ws.RefreshedAt) < 6*time.Minute {
			t.Fatalf("after the update: %+v", got)
		}
		if err := s.UpdateWebSessionIdentity(ctx(t), ws.IDHash, id, models.WebTokens{Refresh: "rt-2"}); err != nil {
			t.Fatal(err)
		}
		if got := mustWebSession(t, s, ws.IDHash); got.RefreshToken != "rt-2" || got.IDToken != "" {
			t.Fatalf("rotated refresh token %q, ID token %q", got.RefreshToken, got.IDToken)
		}
		if err := s.UpdateWebSessionIdentity(ctx(t), ws.IDHash, id, models.WebTokens{ID: "idt-2"}); err != nil {
			t.Fatal(err)
		}
		if got := mustWebSession(t, s, ws.IDHash); got.RefreshToken != "rt-2" || got.IDToken != "idt-2" {
			t.Fatalf("after a new ID token: refresh token %q, ID token %q", got.RefreshToken, got.IDToken)
		}
		other := id
		other.Subject = "mallory"
		if err := s.UpdateWebSessionIdentity(ctx(t), ws.IDHash, other, models.WebTokens{}); !errorsIsNotFound(err) {
			t.Fatalf("another person's identity on the session: %v", err)
		}
		other = id
		other.Tenant = "t2"
		if err := s.UpdateWebSessionIdentity(ctx(t), ws.IDHash, other, models.WebTokens{}); !errorsIsNotFound(err) {
			t.Fatalf("another tenant's identity on the session: %v", err)
		}
	})
	t.Run("Purge", func(t *testing.T) {
		s := h.open(t, Options{Clock: clock.Now}) // an empty table
		absolute := CreateWebSession(t, s, &WebSessionOpts{Lifetime: 3 * time.Minute, IdleTimeout: time.Hour})
		idle := CreateWebSession(t, s, &WebSessionOpts{IdleTimeout: 2 * time.Minute})
		live := CreateWebSession(t, s, &WebSessionOpts{IdleTimeout: time.Hour})
		if n, err := s.PurgeWebSessions(ctx(t)); err != nil || n != 0 {
			t.Fatalf("purge before anything ended: %d, %v", n, err)
		}
		clock.Advance(4 * time.Minute)
		n, err := s.PurgeWebSessions(ctx(t))
		if err != nil || n != 2 {
			t.Fatalf("purged %d, %v; want 2", n, err)
		}
		if n := h.records(t, s, "user_task_web_sessions", nil); n != 1 {
			t.Fatalf("%d rows left, want 1", n)
		}
		wantNoWebSession(t, s, absolute.IDHash)
		wantNoWebSession(t, s, idle.IDHash)
		mustWebSession(t, s, live.IDHash)
	})
}
