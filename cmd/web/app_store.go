package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"usertasks/demo"
	"usertasks/docstore"
	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/live"
	"usertasks/metrics"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/websession"
	"usertasks/workers"
	"usertasks/workflow"
)

// appStore is everything the wired application asks of its store: the union of what each part
// declares it needs. The SQL store (repository.Store) and the document store (docstore.Store)
// both have it; what only the SQL store offers (its dialect's PostgreSQL relay, connection
// pools, statement spans) buildApp takes from a *repository.Store when it has one.
type appStore interface {
	live.Loader
	workflow.FinalizeStore
	workflow.LoopbackStore
	workflow.ProjectionStore
	workers.Store
	tasks.DashboardStore
	tasks.InboxStore
	tasks.Store
	invitations.IssuerStore
	invitations.GuestStore
	metrics.BacklogSource
	demo.Store
	websession.Store
	handlers.Readiness
	NotifyChanges(n models.ChangeNotifier)
	NotifyDeliveries(fn func())
}

var _ appStore = (*repository.Store)(nil)

// servedStore is the store `web serve` runs on, with its name for the start line and what
// to run beside the server (the document store's relay) and to close.
type servedStore struct {
	appStore
	name  string
	run   func(ctx context.Context) // nil: nothing runs beside the server
	close func() error
}

// openServedStore opens the store USERTASKS_DATABASE_URL names, migrating it first when asked,
// and refuses a schema that is not this binary's.
func openServedStore(ctx context.Context, cfg config, migrate bool, log *slog.Logger) (*servedStore, error) {
	if docstore.IsURL(cfg.DatabaseURL) {
		return openServedDocuments(ctx, cfg, migrate, log)
	}
	if migrate {
		if err := repository.Migrate(ctx, cfg.DatabaseURL); err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
	}
	store, err := repository.Open(ctx, repository.Config{URL: cfg.DatabaseURL, Keys: cfg.Keys})
	if err != nil {
		return nil, err
	}
	if err := checkServedSchema(store.CheckSchema(ctx)); err != nil {
		store.Close()
		return nil, err
	}
	return &servedStore{appStore: store, name: string(store.Dialect()), close: store.Close}, nil
}

// relayEvery is how often `web serve` on a document store relays what a write left behind
// (normally each write relays its own entries at once; this catches a writer that died).
const relayEvery = 5 * time.Second

func openServedDocuments(ctx context.Context, cfg config, migrate bool, log *slog.Logger) (*servedStore, error) {
	if migrate {
		conn, err := docstore.Connect(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, err
		}
		_, err = docstore.Up(ctx, conn.DB)
		_ = conn.Close(context.WithoutCancel(ctx))
		if err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
	}
	store, err := docstore.Open(ctx, docstore.Config{URL: cfg.DatabaseURL, Keys: cfg.Keys})
	if err != nil {
		return nil, err
	}
	if err := checkServedSchema(store.CheckSchema(ctx)); err != nil {
		store.Close()
		return nil, err
	}
	var full any = store
	served, ok := full.(appStore)
	if !ok {
		store.Close()
		return nil, fmt.Errorf("refusing to serve: %w", docstore.ErrServeUnsupported)
	}
	run := func(ctx context.Context) { store.RunRelay(ctx, relayEvery, log) }
	return &servedStore{appStore: served, name: "mongodb", run: run, close: store.Close}, nil
}

func checkServedSchema(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, migrations.ErrPending):
		return fmt.Errorf("%w; run 'web migrate up' or 'web serve --migrate'", err)
	}
	return fmt.Errorf("refusing to serve: %w", err)
}
