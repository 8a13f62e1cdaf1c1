// Package repository is the store of User Tasks: one GORM implementation for every supported
// dialect, with transactions, revision compare-and-swap, outbox and lease claiming, the
// database clock and error translation. Dialect quirks live in dialect.go.
package repository

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"gorm.io/gorm"

	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Config configures a Store.
type Config struct {
	// URL selects the dialect by scheme: sqlite:PATH, postgres://, mysql://, sqlserver://, oracle://.
	URL string
	// Keys seals the protected columns. Required.
	Keys *keyring.Keyring
	// WriteTimeout bounds how long a write waits for the database (SQLite: for the one writer
	// connection, then for SQLite's lock) before failing with database-busy. Default 15s.
	WriteTimeout time.Duration
	// BusyTimeout is SQLite's busy timeout for writers outside this process. Default 5s.
	BusyTimeout time.Duration
	// Synchronous is SQLite's synchronous pragma. Default FULL.
	Synchronous string
	// ReadConnections is the size of the reader pool. Default 8.
	ReadConnections int
	// OpenTasksPerTenant caps open and transitional tasks per tenant. Default 250,000.
	OpenTasksPerTenant int
	// TotalCap is the most a list total counts (models.TotalCap). Default models.TotalCap;
	// tests lower it.
	TotalCap int
	// SearchProbe is the most matches of a search (3+ characters, SQLite and PostgreSQL) that a
	// list reads through the substring index and sorts; a needle with more is read by walking
	// the sort index with the LIKE filter (probeSearch). Default DefaultSearchProbe; tests lower
	// it to force both paths.
	SearchProbe int
	// ShortSearchWindow is the most rows one page of a 1–2 character search examines
	// (storekit.ShortSearch). Default storekit.ShortSearchWindow; tests lower it.
	ShortSearchWindow int
	// Clock, when set, adjusts the database clock (tests move time forward with it).
	Clock func(dbNow time.Time) time.Time
	// OnSQL, when set, receives every statement the store runs (tests record it).
	OnSQL func(sql string)
}

// Store is the GORM-backed store: the whole store contract (store.Store) on SQL. It is safe for
// concurrent use.
type Store struct {
	dialect migrations.Dialect
	write   *gorm.DB
	read    *gorm.DB
	pools   []*sql.DB
	keys    *keyring.Keyring
	cfg     Config
	tenants sync.Map // tenants whose counter row is known to exist
	notify  storekit.Notifier
	issued  storekit.Hook // NotifyDeliveries
	tracer  TxTracer      // TraceWith; nil traces nothing
}

var _ store.Store = (*Store)(nil)

// Open connects to the database named by cfg.URL. It neither creates nor migrates the schema:
// call migrations.Up (or `web migrate up`) first; CheckSchema tells whether it is current.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Keys == nil {
		return nil, errors.New("repository: an encryption key ring is required")
	}
	cfg = cfg.withDefaults()
	target, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	s := &Store{dialect: target.Dialect, keys: cfg.Keys, cfg: cfg}
	if err := s.connect(ctx, target); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// withDefaults fills the zero fields with the documented defaults.
func (c Config) withDefaults() Config {
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 15 * time.Second
	}
	if c.BusyTimeout <= 0 {
		c.BusyTimeout = 5 * time.Second
	}
	if c.Synchronous == "" {
		c.Synchronous = "FULL"
	}
	if c.ReadConnections <= 0 {
		c.ReadConnections = 8
	}
	if c.OpenTasksPerTenant <= 0 {
		c.OpenTasksPerTenant = models.DefaultOpenTasksPerTenant
	}
	if c.TotalCap <= 0 {
		c.TotalCap = models.TotalCap
	}
	if c.SearchProbe <= 0 {
		c.SearchProbe = DefaultSearchProbe
	}
	return c
}

// Dialect reports the store's SQL dialect.
func (s *Store) Dialect() migrations.Dialect { return s.dialect }

// DB returns the writer's database handle, for migrations and health checks.
func (s *Store) DB() (*sql.DB, error) { return s.write.DB() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	db, err := s.write.DB()
	if err != nil {
		return err
	}
	return db.PingContext(ctx)
}

// CheckSchema fails unless the database is at exactly this binary's schema version.
func (s *Store) CheckSchema(ctx context.Context) error {
	db, err := s.write.DB()
	if err != nil {
		return err
	}
	cur, latest, err := migrations.Check(ctx, s.dialect, db)
	if err != nil {
		return fmt.Errorf("%w (database at %d, binary at %d)", err, cur, latest)
	}
	return nil
}

// Close releases every connection.
func (s *Store) Close() error {
	var first error
	for _, p := range s.pools {
		if err := p.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.pools = nil
	return first
}
