// Package websessiontest opens browser-session managers for tests: on a migrated store in a
// fresh SQLite file, with a database clock the test can move to cross expiries, idle timeouts
// and refresh intervals without waiting.
package websessiontest

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/keyring"
	"usertasks/repository"
	"usertasks/websession"
)

// Clock moves a store's database clock forward; the zero Clock is the database's own.
type Clock struct{ offset atomic.Int64 }

// Now is the store's clock: the database's time moved by what Advance added.
func (c *Clock) Now(db time.Time) time.Time { return db.Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// keys seals the stores' protected columns.
var keys = func() *keyring.Keyring {
	spec, _ := keyring.Generate("k")
	k, _ := keyring.Parse(spec)
	return k
}()

// NewStore is a migrated store on a fresh SQLite file, closed with the test; clock, when not
// nil, is its database clock.
func NewStore(t testing.TB, clock *Clock) *repository.Store {
	t.Helper()
	u := "sqlite:" + filepath.Join(t.TempDir(), "sessions.db")
	ctx := context.Background()
	if err := repository.Migrate(ctx, u); err != nil {
		t.Fatal(err)
	}
	cfg := repository.Config{URL: u, Keys: keys}
	if clock != nil {
		cfg.Clock = clock.Now
	}
	s, err := repository.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// NewManager builds a session manager. Without a store in cfg it gets a fresh one; without
// secrets, a random one; without a logger, one that discards.
func NewManager(t testing.TB, cfg websession.Config) *websession.Manager {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = NewStore(t, nil)
	}
	if cfg.Secrets == nil {
		cfg.Secrets = [][]byte{websession.GenerateSecret()}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m, err := websession.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
