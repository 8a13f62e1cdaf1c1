package main

import (
	"context"
	"errors"
	"fmt"

	"usertasks/docstore"
	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/workers"
)

// toolStore is what the operator commands (audit, rekey, purge) ask of a store: the SQL store
// and the document store both have it.
type toolStore interface {
	CheckSchema(ctx context.Context) error
	Close() error
	AuditTenantCounters(ctx context.Context, tenant string) ([]models.AuditFinding, error)
	Audit(ctx context.Context, f models.AuditFilter, size int) (models.AuditPage, error)
	AuditSealed(ctx context.Context, table, after string, limit int) (models.KeyPage, error)
	RekeyPage(ctx context.Context, table string, after string, limit int, dryRun bool) (models.KeyPage, error)
	workers.PurgeStore
}

var _ toolStore = (*repository.Store)(nil)

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

// openToolStore opens the store of USERTASKS_DATABASE_URL, SQL or document store, for an
// operator command; the schema must be current.
func openToolStore(ctx context.Context, cfg config) (toolStore, error) {
	if !docstore.IsURL(cfg.DatabaseURL) {
		return openSQLToolStore(ctx, cfg)
	}
	keys, err := toolKeys(cfg)
	if err != nil {
		return nil, err
	}
	ds, err := docstore.Open(ctx, docstore.Config{URL: cfg.DatabaseURL, Keys: keys})
	if err != nil {
		return nil, err
	}
	var full any = ds
	store, ok := full.(toolStore)
	if !ok {
		ds.Close()
		return nil, errors.New("the document store has no audit, rekey or purge in this version")
	}
	if err := checkToolSchema(ctx, store); err != nil {
		return nil, err
	}
	return store, nil
}

// openSQLToolStore opens the SQL store of USERTASKS_DATABASE_URL for an operator command; the
// schema must be current.
func openSQLToolStore(ctx context.Context, cfg config) (*repository.Store, error) {
	if docstore.IsURL(cfg.DatabaseURL) {
		return nil, fmt.Errorf("%w: this command runs on a SQL database only", errUsage)
	}
	keys, err := toolKeys(cfg)
	if err != nil {
		return nil, err
	}
	store, err := repository.Open(ctx, repository.Config{URL: cfg.DatabaseURL, Keys: keys})
	if err != nil {
		return nil, err
	}
	if err := checkToolSchema(ctx, store); err != nil {
		return nil, err
	}
	return store, nil
}

// checkToolSchema closes store when its schema is not current.
func checkToolSchema(ctx context.Context, store toolStore) error {
	err := store.CheckSchema(ctx)
	if err == nil {
		return nil
	}
	store.Close()
	if errors.Is(err, migrations.ErrPending) {
		return fmt.Errorf("%w; run 'web migrate up' first", err)
	}
	return err
}
