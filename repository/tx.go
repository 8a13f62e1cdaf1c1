package repository

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/models"
)

var (
	errNoRows = fmt.Errorf("%w", models.ErrNotFound)
	errBusy   = fmt.Errorf("%w", models.ErrBusy)
)

// maxAttempts bounds retries of a whole write transaction after a deadlock or serialization
// failure reported by the database (the transaction was rolled back, so re-running is safe).
const maxAttempts = 8

// inWrite runs fn in one write transaction with the database clock read inside it. On SQLite
// the transaction begins IMMEDIATE on the single writer connection. Waiting for the
// connection, the lock and the transaction share one deadline (Config.WriteTimeout); running
// out of it is database-busy with nothing written.
func (s *Store) inWrite(ctx context.Context, fn func(tx *gorm.DB, now time.Time) error) (err error) {
	ctx, end := s.traceTx(ctx, true)
	defer func() { end(err) }()
	for attempt := 0; attempt < maxAttempts; attempt++ {
		err = s.writeOnce(ctx, fn)
		if !errors.Is(err, errRetry) {
			return err
		}
		// Back off a little, with jitter, so the colliding transactions do not meet again.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1+rand.IntN(5<<attempt)) * time.Millisecond):
		}
	}
	return fmt.Errorf("%w: %v", models.ErrBusy, err)
}

func (s *Store) writeOnce(parent context.Context, fn func(tx *gorm.DB, now time.Time) error) (err error) {
	ctx, cancel := context.WithTimeout(parent, s.cfg.WriteTimeout)
	defer cancel()
	tx := s.write.WithContext(ctx).Begin()
	if tx.Error != nil {
		return s.busyOr(parent, ctx, tx.Error)
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	now, err := s.dbNow(tx)
	if err != nil {
		return s.busyOr(parent, ctx, err)
	}
	if err = fn(tx, now); err != nil {
		return s.busyOr(parent, ctx, err)
	}
	if err = tx.Commit().Error; err != nil {
		return s.busyOr(parent, ctx, translate(err))
	}
	return nil
}

// busyOr maps a wait that ran out of the write deadline (but not the caller's own context)
// to database-busy. When the caller's context ended, that is the cause whatever the driver
// said: database/sql rolls a transaction back as soon as its context is done, so a COMMIT
// racing the cancellation reports only sql.ErrTxDone.
func (s *Store) busyOr(parent, ctx context.Context, err error) error {
	if cause := parent.Err(); cause != nil {
		return fmt.Errorf("%w: %v", cause, err)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: write deadline of %s passed", models.ErrBusy, s.cfg.WriteTimeout)
	}
	return translate(err)
}

// inRead runs fn in a read-only transaction: one consistent snapshot on every dialect that
// has them, and WAL readers that never wait for the SQLite writer.
func (s *Store) inRead(ctx context.Context, fn func(tx *gorm.DB) error) (err error) {
	ctx, end := s.traceTx(ctx, false)
	defer func() { end(err) }()
	tx := s.read.WithContext(ctx).Begin(s.readOptions())
	if tx.Error != nil {
		return translate(tx.Error)
	}
	defer tx.Rollback()
	return fn(tx)
}

// inReadAt runs fn in one read transaction with the database's time, read first in that
// transaction (as inWrite hands a write its time), so every time-dependent condition of the
// read agrees.
func (s *Store) inReadAt(ctx context.Context, fn func(tx *gorm.DB, now time.Time) error) error {
	return s.inRead(ctx, func(tx *gorm.DB) error {
		now, err := s.dbNow(tx)
		if err != nil {
			return err
		}
		return fn(tx, now)
	})
}

// readOptions makes a read one snapshot where the dialect's default would give each statement
// its own (PostgreSQL's READ COMMITTED), so a page and its total agree. SQLite's WAL read
// transactions are snapshots already.
func (s *Store) readOptions() *sql.TxOptions {
	switch s.dialect {
	case migrations.Postgres, migrations.MySQL:
		return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
	}
	return nil
}

// Now reads the database clock.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	var now time.Time
	err := s.inRead(ctx, func(tx *gorm.DB) error {
		var err error
		now, err = s.dbNow(tx)
		return err
	})
	return now, err
}
