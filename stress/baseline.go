package stress

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"usertasks/migrations"
	"usertasks/repository"
)

// baseline is the raw-SQL yardstick: the shape of a revision-checked command (read the
// revision, UPDATE … WHERE revision = ?, INSERT an event, INSERT an outbox row) and an indexed
// list page, issued through database/sql from plain goroutines on the store's own pools,
// on scratch tables of this run that are dropped at the end. A nil baseline (no database)
// measures nothing.
type baseline struct {
	db      *sql.DB
	reads   *sql.DB // the store's reader pool where it has one (SQLite), else db
	dialect migrations.Dialect
	task    string // table names
	event   string
	outbox  string
	seq     atomic.Int64
}

func openBaseline(ctx context.Context, store *repository.Store, run string) (*baseline, error) {
	db, err := store.DB()
	if err != nil {
		return nil, err
	}
	p := "stress_raw_" + run
	reads := db
	if r, ok := store.Pools()["read"]; ok {
		reads = r
	}
	b := &baseline{db: db, reads: reads, dialect: store.Dialect(), task: p + "_task", event: p + "_event", outbox: p + "_outbox"}
	stmts := []string{
		"CREATE TABLE " + b.task + " (id VARCHAR(64) NOT NULL PRIMARY KEY, tenant_id VARCHAR(64) NOT NULL, " +
			"revision INTEGER NOT NULL, status VARCHAR(32) NOT NULL, title VARCHAR(200) NOT NULL, priority INTEGER NOT NULL, created_seq BIGINT NOT NULL)",
		"CREATE INDEX " + p + "_inbox ON " + b.task + " (tenant_id, status, created_seq)",
		"CREATE TABLE " + b.event + " (id VARCHAR(64) NOT NULL PRIMARY KEY, task_id VARCHAR(64) NOT NULL, " +
			"revision INTEGER NOT NULL, kind VARCHAR(32) NOT NULL, seq BIGINT NOT NULL)",
		"CREATE TABLE " + b.outbox + " (id VARCHAR(64) NOT NULL PRIMARY KEY, task_id VARCHAR(64) NOT NULL, " +
			"state VARCHAR(16) NOT NULL, seq BIGINT NOT NULL)",
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			b.close(ctx)
			return nil, err
		}
	}
	return b, nil
}

// close drops the scratch tables.
func (b *baseline) close(ctx context.Context) {
	for _, t := range []string{b.outbox, b.event, b.task} {
		_, _ = b.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+t)
	}
}

// q writes the statement in the dialect's placeholders.
func (b *baseline) q(s string) string { return rawSQL(b.dialect, s) }

// seed inserts n available rows of tenant in one transaction and answers their ids.
func (b *baseline) seed(ctx context.Context, tenant string, n int) ([]string, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	ids := make([]string, n)
	insert := b.q("INSERT INTO " + b.task + " (id, tenant_id, revision, status, title, priority, created_seq) VALUES (?, ?, 1, 'Available', ?, ?, ?)")
	for i := range ids {
		seq := b.seq.Add(1)
		ids[i] = fmt.Sprintf("%s-%d", tenant, seq)
		if _, err := tx.ExecContext(ctx, insert, ids[i], tenant, fmt.Sprintf("Raw %d", i), i%5, seq); err != nil {
			return nil, err
		}
	}
	return ids, tx.Commit()
}

// change runs the command's shape on task id expecting revision (0: whatever it reads).
func (b *baseline) change(ctx context.Context, id string, expected int) (Outcome, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return Failed, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	var rev int
	if err := tx.QueryRowContext(ctx, b.q("SELECT revision FROM "+b.task+" WHERE id = ?"), id).Scan(&rev); err != nil {
		return Failed, err
	}
	if expected != 0 && rev != expected {
		return Conflict, nil
	}
	res, err := tx.ExecContext(ctx, b.q("UPDATE "+b.task+" SET revision = revision + 1, status = 'Assigned' WHERE id = ? AND revision = ?"), id, rev)
	if err != nil {
		return Failed, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return Conflict, err
	}
	seq := b.seq.Add(1)
	key := fmt.Sprintf("%s-%d", id, seq)
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO "+b.event+" (id, task_id, revision, kind, seq) VALUES (?, ?, ?, 'changed', ?)"), key, id, rev+1, seq); err != nil {
		return Failed, err
	}
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO "+b.outbox+" (id, task_id, state, seq) VALUES (?, ?, 'pending', ?)"), key, id, seq); err != nil {
		return Failed, err
	}
	if err := tx.Commit(); err != nil {
		return Failed, err
	}
	return Applied, nil
}

// contended: every one of writers changes every one of n rows at revision 1, in the same order.
func (b *baseline) contended(ctx context.Context, m *meter, n, writers int) error {
	if b == nil {
		return nil
	}
	ids, err := b.seed(ctx, "contended", n)
	if err != nil {
		return err
	}
	phase(ctx, writers, func(ctx context.Context, _ int) {
		for _, id := range ids {
			m.observe(func() (Outcome, error) { return b.change(ctx, id, 1) })
		}
	}, m)
	return nil
}

// uncontended: writers share n rows and change each once.
func (b *baseline) uncontended(ctx context.Context, m *meter, n, writers int) error {
	if b == nil {
		return nil
	}
	ids, err := b.seed(ctx, "uncontended", n)
	if err != nil {
		return err
	}
	phase(ctx, writers, func(ctx context.Context, w int) {
		for i := w; i < len(ids); i += writers {
			m.observe(func() (Outcome, error) { return b.change(ctx, ids[i], 0) })
		}
	}, m)
	return nil
}

// mixed: writers change each of n rows twice (claim and complete) while readers page the
// available rows with the indexed SELECT until the writers are done.
func (b *baseline) mixed(ctx context.Context, writes, pages *meter, n, writers, readers int) error {
	if b == nil {
		return nil
	}
	tenant := fmt.Sprintf("mixed-%d", b.seq.Add(1))
	ids, err := b.seed(ctx, tenant, n)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		phase(ctx, readers, func(ctx context.Context, _ int) {
			for {
				b.pageThrough(ctx, pages, tenant)
				select {
				case <-done:
					return
				default:
				}
			}
		}, pages)
	})
	phase(ctx, writers, func(ctx context.Context, w int) {
		for i := w; i < len(ids); i += writers {
			for range 2 {
				writes.observe(func() (Outcome, error) { return b.change(ctx, ids[i], 0) })
			}
		}
	}, writes)
	close(done)
	wg.Wait()
	return nil
}

// pageThrough reads up to four pages of available rows, newest first, by keyset.
func (b *baseline) pageThrough(ctx context.Context, m *meter, tenant string) {
	after := int64(1) << 62
	for range 4 {
		var rows int
		var last int64
		m.observe(func() (Outcome, error) {
			rs, err := b.reads.QueryContext(ctx, b.q("SELECT id, title, priority, revision, created_seq FROM "+b.task+
				" WHERE tenant_id = ? AND status = 'Available' AND created_seq < ? ORDER BY created_seq DESC LIMIT "+strconv.Itoa(pageSize)), tenant, after)
			if err != nil {
				return Failed, err
			}
			defer rs.Close()
			for rs.Next() {
				var id, title string
				var prio, rev int
				if err := rs.Scan(&id, &title, &prio, &rev, &last); err != nil {
					return Failed, err
				}
				rows++
			}
			return Applied, rs.Err()
		})
		if rows < pageSize {
			return
		}
		after = last
	}
}
