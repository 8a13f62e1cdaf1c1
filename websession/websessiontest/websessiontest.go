// Package websessiontest opens browser-session managers for tests, on a testfactory store (whose
// testfactory.Clock the test moves to cross expiries, idle timeouts and refresh intervals).
package websessiontest

import (
	"io"
	"log/slog"
	"testing"

	"usertasks/testfactory"
	"usertasks/websession"
)

// NewManager builds a session manager. Without a store in cfg it gets a fresh one; without
// secrets, a random one; without a logger, one that discards.
func NewManager(t testing.TB, cfg websession.Config) *websession.Manager {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = testfactory.OpenStore(t, testfactory.SQLite, nil)
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
