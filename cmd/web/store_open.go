package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"usertasks/docstore"
	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/store"
)

// openedStore is the store USERTASKS_DATABASE_URL names, SQL or document store, as one
// store.Store, with what only one backend has beside it.
type openedStore struct {
	store.Store
	// name is the backend for the start line: the SQL dialect, or "mongodb".
	name string
	// sql is the SQL store (its dialect's PostgreSQL relay, connection pools, statement spans,
	// the bulk loader's connection); nil on the document store.
	sql *repository.Store
	// run is what runs beside the server (the document store's relay); nil on SQL.
	run func(ctx context.Context, log *slog.Logger)
}

// storeUse says how a command opens its store.
type storeUse struct {
	// migrate applies pending migrations first (`web serve --migrate`, dev mode).
	migrate bool
	// keys seals and opens protected values.
	keys *keyring.Keyring
	// pending is the advice appended to a schema that is behind this binary's.
	pending string
}

// relayEvery is how often `web serve` on a document store relays what a write left behind
// (normally each write relays its own entries at once; this catches a writer that died).
const relayEvery = 5 * time.Second

// openStore opens either backend, migrating first when asked, and refuses a schema that is not
// this binary's: every command that needs a store (serve, audit, rekey, purge, stress) opens it
// here.
func openStore(ctx context.Context, url string, use storeUse) (*openedStore, error) {
	if use.migrate {
		migrate := repository.Migrate
		if docstore.IsURL(url) {
			migrate = docstore.Migrate
		}
		if err := migrate(ctx, url); err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
	}
	opened, err := openBackend(ctx, url, use.keys)
	if err != nil {
		return nil, err
	}
	if err := opened.CheckSchema(ctx); err != nil {
		opened.Close()
		if errors.Is(err, migrations.ErrPending) {
			return nil, fmt.Errorf("%w; %s", err, use.pending)
		}
		return nil, fmt.Errorf("refusing to open the store: %w", err)
	}
	return opened, nil
}

func openBackend(ctx context.Context, url string, keys *keyring.Keyring) (*openedStore, error) {
	if docstore.IsURL(url) {
		ds, err := docstore.Open(ctx, docstore.Config{URL: url, Keys: keys})
		if err != nil {
			return nil, err
		}
		run := func(ctx context.Context, log *slog.Logger) { ds.RunRelay(ctx, relayEvery, log) }
		return &openedStore{Store: ds, name: "mongodb", run: run}, nil
	}
	s, err := repository.Open(ctx, repository.Config{URL: url, Keys: keys})
	if err != nil {
		return nil, err
	}
	return &openedStore{Store: s, name: string(s.Dialect()), sql: s}, nil
}

// openToolStore opens the store of an operator command (audit, rekey, purge, stress); the
// schema must be current.
func openToolStore(ctx context.Context, cfg config) (*openedStore, error) {
	keys, err := toolKeys(cfg)
	if err != nil {
		return nil, err
	}
	return openStore(ctx, cfg.DatabaseURL, storeUse{keys: keys, pending: "run 'web migrate up' first"})
}

// openKeyedTool loads the configuration of an operator command that opens sealed values
// (audit, rekey) and opens its store: the keys must be configured (in dev mode, the dev
// database's).
func openKeyedTool(ctx context.Context, env environment, stderr io.Writer) (config, *openedStore, error) {
	cfg, _, err := loadToolConfig(env, stderr)
	if err != nil {
		return cfg, nil, err
	}
	if err := cfg.requireKeys(); err != nil {
		return cfg, nil, err
	}
	st, err := openToolStore(ctx, cfg)
	return cfg, st, err
}

// openSQLToolStore opens the SQL store of an operator command that writes SQL itself (the bulk
// loader of `web stress seed`).
func openSQLToolStore(ctx context.Context, cfg config) (*repository.Store, error) {
	if docstore.IsURL(cfg.DatabaseURL) {
		return nil, fmt.Errorf("%w: this command writes SQL itself: it runs on a SQL database only, not on the document store", errUsage)
	}
	opened, err := openToolStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return opened.sql, nil
}

// toolKeys is the key ring of an operator command: the configured one, or for a command that
// neither seals nor opens protected values (purge, stress seed) without
// USERTASKS_ENCRYPTION_KEYS, a server setting, an ephemeral ring standing in.
func toolKeys(cfg config) (*keyring.Keyring, error) {
	if cfg.Keys != nil {
		return cfg.Keys, nil
	}
	spec, err := keyring.Generate("tool")
	if err != nil {
		return nil, err
	}
	return keyring.Parse(spec)
}
