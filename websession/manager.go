// Package websession keeps browser sign-ins on the server (SPEC 5.4) and guards what is posted
// with them: the session store wrapper, the cookies, and CSRF with origin checks. It speaks
// net/http; webguard puts it in front of the routes.
//
// A session lives in the store, keyed by the SHA-256 hash of a random id that only the
// browser's cookie holds. It ends at once on logout, on "sign out everywhere", at the absolute
// expiry (8 hours after sign-in by default) and after the idle timeout (30 minutes without a
// request by default); all of these are decided with the database clock. The identity it
// speaks for is re-read at most every refresh interval (5 minutes by default) from where the
// sign-in got it: the dev user list, or the OIDC provider through the refresh token. When it
// cannot be re-read — the dev user is gone, the provider refuses or is unreachable, no refresh
// token was issued — the session ends and the person signs in again: permissions are never
// older than the interval.
package websession

import (
	"context"
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/securecookie"

	"usertasks/models"
)

// Defaults of Config.
const (
	DefaultLifetime        = 8 * time.Hour
	DefaultIdleTimeout     = 30 * time.Minute
	DefaultRefreshInterval = 5 * time.Minute
	// MinIdleTimeout keeps the idle timeout well above the store's once-a-minute update of
	// last_seen_at, so an active session never looks idle.
	MinIdleTimeout = 2 * time.Minute
)

// purgeEvery is how often (by the database clock) a sign-in also sweeps ended sessions.
const purgeEvery = 10 * time.Minute

// Store keeps the sessions; store.Store satisfies it.
type Store interface {
	CreateWebSession(ctx context.Context, ws models.WebSession, lifetime time.Duration) (models.WebSession, error)
	WebSession(ctx context.Context, idHash string) (models.WebSession, error)
	DeleteWebSession(ctx context.Context, idHash string) error
	EndWebSession(ctx context.Context, idHash string) (models.WebSession, error)
	EndSubjectWebSessions(ctx context.Context, tenant, provider, subject string) ([]models.WebSession, error)
	SetWebSessionTimeZone(ctx context.Context, idHash, zone string) error
	UpdateWebSessionIdentity(ctx context.Context, idHash string, id models.WebIdentity, tokens models.WebTokens) error
	PurgeWebSessions(ctx context.Context) (int64, error)
	SaveWebNote(ctx context.Context, sessionHash string, body []byte, lifetime time.Duration) (string, error)
	WebNote(ctx context.Context, sessionHash, id string) ([]byte, error)
	PurgeWebNotes(ctx context.Context) (int64, error)
}

// IdentitySource re-reads the identity of a session from where its sign-in got it. It returns
// the identity now and the tokens the source issued anew (a rotated refresh token, a new ID
// token; an empty one keeps the stored value). Any error ends the session.
type IdentitySource interface {
	Refresh(ctx context.Context, ws models.WebSession) (models.WebIdentity, models.WebTokens, error)
}

// Config configures the sessions.
type Config struct {
	// Store keeps the sessions. Required.
	Store Store
	// Secrets sign and encrypt the short-lived cookies (flash messages, OIDC login state) and
	// key the CSRF tokens; keys are derived from each with HKDF. The first seals new cookies; all
	// open them, so a secret is rotated by putting the new one first. Each must have at least
	// MinSecretBytes bytes.
	Secrets [][]byte
	// Lifetime is the absolute lifetime of a sign-in; zero means DefaultLifetime.
	Lifetime time.Duration
	// IdleTimeout ends a session after this long without a request; zero means
	// DefaultIdleTimeout. At least MinIdleTimeout.
	IdleTimeout time.Duration
	// RefreshInterval is how old the identity of a session may get before it is re-read; zero
	// means DefaultRefreshInterval.
	RefreshInterval time.Duration
	// BaseURL is the public URL of the site (USERTASKS_BASE_URL); its origin is the one
	// state-changing requests may come from. Without it, the origin the request addresses.
	BaseURL string
	// Insecure is dev mode on http://127.0.0.1: no Secure flag, no __Host- prefix, and requests
	// may also come from the origin they address. Never set it in production.
	Insecure bool
	// Now is the clock of cookie expiry (the sessions themselves use the database clock); nil
	// means time.Now.
	Now func() time.Time
	// Logger receives the reasons sessions end early; nil means slog.Default().
	Logger *slog.Logger
}

// Manager starts, reads and ends browser sessions. It is safe for concurrent use.
type Manager struct {
	store        Store
	codecs       []securecookie.Codec
	csrfKey      []byte
	lifetime     time.Duration
	idle         time.Duration
	refreshEvery time.Duration
	origin       string // the base URL's origin; "" when none is configured
	hostOrigins  bool   // also accept the origin the request addresses
	secure       bool
	now          func() time.Time
	log          *slog.Logger

	mu         sync.RWMutex
	sources    map[string]IdentitySource
	refreshing keyedMutex
	lastPurge  atomic.Int64 // database clock, Unix seconds, of the last sweep
}

// New checks the configuration and derives the keys.
func New(cfg Config) (*Manager, error) {
	if cfg.Store == nil {
		return nil, errors.New("websession: a session store is required")
	}
	if len(cfg.Secrets) == 0 {
		return nil, errors.New("websession: at least one secret is required")
	}
	m := &Manager{
		store: cfg.Store, lifetime: orDefault(cfg.Lifetime, DefaultLifetime), idle: orDefault(cfg.IdleTimeout, DefaultIdleTimeout),
		refreshEvery: orDefault(cfg.RefreshInterval, DefaultRefreshInterval), origin: originOf(cfg.BaseURL),
		hostOrigins: cfg.Insecure || cfg.BaseURL == "", secure: !cfg.Insecure, now: cfg.Now, log: cfg.Logger,
		sources: map[string]IdentitySource{},
	}
	if m.idle < MinIdleTimeout {
		return nil, fmt.Errorf("websession: the idle timeout must be at least %s", MinIdleTimeout)
	}
	if cfg.BaseURL != "" && m.origin == "" {
		return nil, fmt.Errorf("websession: the base URL %q has no http(s) origin", cfg.BaseURL)
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	for i, secret := range cfg.Secrets {
		if len(secret) < MinSecretBytes {
			return nil, fmt.Errorf("websession: secret %d is shorter than %d bytes", i+1, MinSecretBytes)
		}
		hashKey, err := hkdf.Key(sha256.New, secret, nil, "usertasks session hash key", 64)
		if err != nil {
			return nil, err
		}
		blockKey, err := hkdf.Key(sha256.New, secret, nil, "usertasks session block key", 32)
		if err != nil {
			return nil, err
		}
		codec := securecookie.New(hashKey, blockKey)
		codec.SetSerializer(securecookie.JSONEncoder{})
		// Sealed payloads carry their own, shorter expiry; this bounds the signed timestamp.
		codec.MaxAge(int(m.lifetime / time.Second))
		m.codecs = append(m.codecs, codec)
		if i == 0 {
			if m.csrfKey, err = hkdf.Key(sha256.New, secret, nil, "usertasks csrf key", 32); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// SetIdentitySource names where sessions signed in via (models.WebViaDev, models.WebViaOIDC)
// re-read their identity. A session without a source ends when its refresh falls due.
func (m *Manager) SetIdentitySource(via string, src IdentitySource) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sources[via] = src
}

// Start signs a person in: a new session in the store and its cookie on w (a fresh id, so no
// token of an earlier page carries over). A session the browser held before ends: switching
// users on a shared computer leaves nothing of the first one usable. tokens are the OIDC
// sign-in's refresh and ID tokens, if any.
func (m *Manager) Start(w http.ResponseWriter, r *http.Request, a models.Actor, via string, tokens models.WebTokens) (Session, error) {
	ctx := r.Context()
	if previous, ok := parseSessionID(m.cookieValue(r, SessionCookie)); ok {
		if err := m.store.DeleteWebSession(ctx, previous); err != nil {
			return Session{}, fmt.Errorf("websession: end the previous session: %w", err)
		}
	}
	id, idHash := newSessionID()
	ws, err := m.store.CreateWebSession(ctx, models.WebSession{
		IDHash: idHash, WebIdentity: models.IdentityOf(a), Via: via, RefreshToken: tokens.Refresh, IDToken: tokens.ID, IdleTimeout: m.idle,
	}, m.lifetime)
	if err != nil {
		return Session{}, fmt.Errorf("websession: start: %w", err)
	}
	http.SetCookie(w, m.Cookie(SessionCookie, id, m.lifetime))
	m.maybePurge(ctx, ws.Now)
	return sessionOf(ws), nil
}

// Read returns the request's live session; models.ErrUnauthorized when there is none (no
// cookie, a malformed one, an ended session, an identity that could not be re-read). Other
// errors are the store's (busy, say) and do not sign anybody out.
func (m *Manager) Read(r *http.Request) (Session, error) {
	idHash, ok := parseSessionID(m.cookieValue(r, SessionCookie))
	if !ok {
		return Session{}, models.ErrUnauthorized
	}
	ctx := r.Context()
	ws, err := m.store.WebSession(ctx, idHash)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return Session{}, models.ErrUnauthorized
	case errors.Is(err, models.ErrCorrupt):
		return Session{}, m.endEarly(ctx, idHash, "the stored session does not decode", err)
	case err != nil:
		return Session{}, err
	}
	if ws.Now.Sub(ws.RefreshedAt) >= m.refreshEvery {
		if ws, err = m.refresh(ctx, ws); err != nil {
			return Session{}, err
		}
	}
	return sessionOf(ws), nil
}

// refresh re-reads the identity of a session whose refresh is due and stores it. Requests of
// the same session wait for one refresh instead of each spending the refresh token (providers
// that rotate refresh tokens treat a second use as theft).
func (m *Manager) refresh(ctx context.Context, ws models.WebSession) (models.WebSession, error) {
	unlock := m.refreshing.lock(ws.IDHash)
	defer unlock()
	cur, err := m.store.WebSession(ctx, ws.IDHash)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return ws, models.ErrUnauthorized
	case err != nil:
		return ws, err
	case cur.Now.Sub(cur.RefreshedAt) < m.refreshEvery:
		return cur, nil // refreshed while this request waited
	}
	m.mu.RLock()
	src := m.sources[cur.Via]
	m.mu.RUnlock()
	if src == nil {
		return ws, m.endEarly(ctx, cur.IDHash, "no identity source for sign-ins via "+cur.Via, nil)
	}
	id, tokens, err := src.Refresh(ctx, cur)
	if err != nil {
		return ws, m.endEarly(ctx, cur.IDHash, "the identity could not be re-read", err)
	}
	if !id.SamePerson(cur.WebIdentity) {
		return ws, m.endEarly(ctx, cur.IDHash, "the identity re-read names another person", nil)
	}
	if err := m.store.UpdateWebSessionIdentity(ctx, cur.IDHash, id, tokens); err != nil {
		if errors.Is(err, models.ErrNotFound) {
			return ws, models.ErrUnauthorized
		}
		if errors.Is(err, models.ErrInvalid) {
			return ws, m.endEarly(ctx, cur.IDHash, "the identity re-read does not fit a session", err)
		}
		return ws, err
	}
	cur.WebIdentity, cur.RefreshedAt = id, cur.Now
	if tokens.Refresh != "" {
		cur.RefreshToken = tokens.Refresh
	}
	if tokens.ID != "" {
		cur.IDToken = tokens.ID
	}
	return cur, nil
}

// endEarly deletes a session that cannot go on and reports the request as signed out. The
// reason is logged with a prefix of the id hash, never the id or a token.
func (m *Manager) endEarly(ctx context.Context, idHash, reason string, cause error) error {
	attrs := []any{"reason", reason, "session", idHash[:12]}
	if cause != nil {
		attrs = append(attrs, "error", cause.Error())
	}
	m.log.WarnContext(ctx, "web session ended", attrs...)
	if err := m.store.DeleteWebSession(ctx, idHash); err != nil {
		return err
	}
	return models.ErrUnauthorized
}

// SignOut is what a sign-out ended, for the sign-out at the identity provider.
type SignOut struct {
	// Sessions is how many sessions ended.
	Sessions int
	// Via and IDToken are the request's own session's sign-in and ID token (the id_token_hint
	// of the logout at the provider); empty when the request had no session or it held none.
	Via     string
	IDToken string
	// RefreshTokens are the OIDC refresh tokens of the sessions that ended, to revoke.
	RefreshTokens []string
}

// signOutOf collects what the ended sessions hold at the provider; own is the request's own
// session's id hash.
func signOutOf(ended []models.WebSession, own string) SignOut {
	out := SignOut{Sessions: len(ended)}
	for _, ws := range ended {
		if ws.IDHash == own {
			out.Via, out.IDToken = ws.Via, ws.IDToken
		}
		if ws.Via == models.WebViaOIDC && ws.RefreshToken != "" {
			out.RefreshTokens = append(out.RefreshTokens, ws.RefreshToken)
		}
	}
	return out
}

// End signs the request's session out: its row is deleted (a copied cookie fails at once) and
// the cookie cleared. A request without a session just gets the cookie cleared.
func (m *Manager) End(w http.ResponseWriter, r *http.Request) (SignOut, error) {
	http.SetCookie(w, m.Cookie(SessionCookie, "", -1))
	idHash, ok := parseSessionID(m.cookieValue(r, SessionCookie))
	if !ok {
		return SignOut{}, nil
	}
	ws, err := m.store.EndWebSession(r.Context(), idHash)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return SignOut{}, nil
	case err != nil:
		return SignOut{}, err
	}
	return signOutOf([]models.WebSession{ws}, idHash), nil
}

// EndEverywhere signs the person of s out of every session in s's tenant ("sign out
// everywhere"), this one included, and clears the cookie.
func (m *Manager) EndEverywhere(w http.ResponseWriter, r *http.Request, s Session) (SignOut, error) {
	http.SetCookie(w, m.Cookie(SessionCookie, "", -1))
	ended, err := m.store.EndSubjectWebSessions(r.Context(), s.Tenant, s.Provider, s.Subject)
	if err != nil {
		return SignOut{}, err
	}
	return signOutOf(ended, s.idHash), nil
}

// SetTimeZone stores the IANA zone the browser reported on the session. A name that is not a
// zone this binary knows is a validation error.
func (m *Manager) SetTimeZone(ctx context.Context, s Session, zone string) error {
	if _, ok := LoadTimeZone(zone); !ok {
		return models.InvalidField("timeZone", "must be an IANA time zone name")
	}
	if err := m.store.SetWebSessionTimeZone(ctx, s.idHash, zone); err != nil {
		if errors.Is(err, models.ErrNotFound) {
			return models.ErrUnauthorized
		}
		return err
	}
	return nil
}

// RequestActor authenticates a JSON API request by the session cookie (SPEC 5.1: the API
// accepts a bearer token or the session). A state-changing request (any method but GET, HEAD,
// OPTIONS) must also come from our origin and send the session's CSRF token in X-CSRF-Token —
// the pages publish it in <meta name="csrf-token"> — because a cross-site page can make the
// browser send the cookie but cannot read the token. No session is models.ErrUnauthorized; a
// foreign origin or a missing or wrong token is models.ErrForbidden.
func (m *Manager) RequestActor(r *http.Request) (models.Actor, error) {
	s, err := m.Read(r)
	if err != nil {
		return models.Actor{}, err
	}
	if !SafeMethod(r.Method) && !m.CheckCSRF(r, &s, "", false) {
		return models.Actor{}, models.ErrForbidden
	}
	return s.Actor(), nil
}

// SafeMethod reports a method that must not change state.
func SafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// maybePurge sweeps ended sessions and expired notes when the last sweep is purgeEvery old (by the database
// clock, now). A failed sweep is logged; the sign-in goes on.
func (m *Manager) maybePurge(ctx context.Context, now time.Time) {
	last := m.lastPurge.Load()
	if now.Unix()-last < int64(purgeEvery/time.Second) || !m.lastPurge.CompareAndSwap(last, now.Unix()) {
		return
	}
	if n, err := m.store.PurgeWebSessions(ctx); err != nil {
		m.log.WarnContext(ctx, "sweeping ended web sessions failed", "error", err.Error())
	} else if n > 0 {
		m.log.InfoContext(ctx, "swept ended web sessions", "count", n)
	}
	if n, err := m.store.PurgeWebNotes(ctx); err != nil {
		m.log.WarnContext(ctx, "sweeping expired web notes failed", "error", err.Error())
	} else if n > 0 {
		m.log.InfoContext(ctx, "swept expired web notes", "count", n)
	}
}

// keyedMutex serializes work per key (a session's refresh) without holding a lock per session
// forever.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	sync.Mutex
	waiters int
}

func (k *keyedMutex) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyedLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{}
		k.locks[key] = l
	}
	l.waiters++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.waiters--; l.waiters == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
