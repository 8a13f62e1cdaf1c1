package seed

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"usertasks/migrations"
)

// Load writes the tenants of o into the migrated database db of dialect d (SQLite, PostgreSQL
// or MySQL/MariaDB), one transaction per o.Batch tasks, on one connection whose session is
// tuned for a bulk load (SQLite: no fsync, no foreign key checks; PostgreSQL: no synchronous
// commit; MariaDB: no unique and foreign key checks) and restored before it returns. It refuses
// a tenant that already holds tasks (ErrTenantNotEmpty) before writing anything.
//
// When the task tables are empty, Load drops their secondary indexes first and builds them once
// at the end, which is many times faster than maintaining them row by row; a database that
// holds other tenants keeps its indexes and loads more slowly, so a running server is never
// left without them. Last it refreshes the planner statistics (ANALYZE, VACUUM ANALYZE,
// ANALYZE TABLE). It returns one Result per tenant, in order.
func Load(ctx context.Context, db *sql.DB, d migrations.Dialect, o Options) ([]Result, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	switch d {
	case migrations.SQLite, migrations.Postgres, migrations.MySQL:
	default:
		return nil, fmt.Errorf("seed: dialect %s is not supported (SQLite, PostgreSQL, MySQL/MariaDB)", d)
	}
	o = o.withDefaults()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	w := &writer{conn: conn, dialect: d, batch: o.Batch}
	for _, t := range o.Tenants {
		if err := w.refuseNonEmpty(ctx, t.Name); err != nil {
			return nil, err
		}
	}
	restore, err := w.bulkSession(ctx)
	if err != nil {
		return nil, err
	}
	defer restore()
	empty, err := w.tablesEmpty(ctx)
	if err != nil {
		return nil, err
	}
	var indexes []string
	if empty {
		o.Progress(Progress{Phase: PhaseDropIndexes})
		if indexes, err = w.dropIndexes(ctx); err != nil {
			return nil, err
		}
	}
	total := 0
	for _, t := range o.Tenants {
		total += t.Open + t.Terminal
	}
	var out []Result
	done := 0
	for i, t := range o.Tenants {
		g := newGenerator(t.Name, t.Open, t.Terminal, w.rollupStripes(), o.Now, o.Seed+uint64(i), o.Keys)
		err := w.load(ctx, g, func(n int) {
			o.Progress(Progress{Phase: PhaseTasks, Done: done + n, Total: total, Tenant: t.Name})
		})
		if err != nil {
			return out, err
		}
		done += t.Open + t.Terminal
		out = append(out, g.res)
	}
	if len(indexes) > 0 {
		o.Progress(Progress{Phase: PhaseCreateIndexes})
		for _, create := range indexes {
			if _, err := conn.ExecContext(ctx, create); err != nil {
				return out, fmt.Errorf("seed: recreate index: %w", err)
			}
		}
	}
	o.Progress(Progress{Phase: PhaseAnalyze})
	return out, w.analyze(ctx)
}

// loadedTables are the tables Load fills in bulk.
var loadedTables = []string{"user_tasks", "user_task_candidates", "user_task_events", "user_task_operations", "user_task_resumptions"}

// writer writes tables in multi-row INSERTs on one connection.
type writer struct {
	conn    *sql.Conn
	dialect migrations.Dialect
	batch   int
}

// rollupStripes is how many stripes the store spreads a rollup counter over on the dialect
// (repository.Store.counterStripes): one on SQLite's single writer, 16 elsewhere.
func (w *writer) rollupStripes() int {
	if w.dialect == migrations.SQLite {
		return 1
	}
	return 16
}

// placeholder is the n-th (1-based) bind placeholder of the dialect.
func (w *writer) placeholder(n int) string {
	if w.dialect == migrations.Postgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// refuseNonEmpty returns ErrTenantNotEmpty when tenant holds a task.
func (w *writer) refuseNonEmpty(ctx context.Context, tenant string) error {
	var one int
	err := w.conn.QueryRowContext(ctx, "SELECT 1 FROM user_tasks WHERE tenant_id = "+w.placeholder(1)+" LIMIT 1", tenant).Scan(&one)
	switch {
	case err == sql.ErrNoRows:
		return nil
	case err != nil:
		return fmt.Errorf("seed: check tenant %q: %w", tenant, err)
	}
	return fmt.Errorf("%w: %q", ErrTenantNotEmpty, tenant)
}

// tablesEmpty tells whether no tenant holds a task.
func (w *writer) tablesEmpty(ctx context.Context) (bool, error) {
	var one int
	err := w.conn.QueryRowContext(ctx, "SELECT 1 FROM user_tasks LIMIT 1").Scan(&one)
	if err == sql.ErrNoRows {
		return true, nil
	}
	return false, err
}

// bulkSession relaxes the connection's durability and checks for the load and returns the
// function that restores them. The rows are consistent by construction; a crash mid-load
// leaves a tenant to drop, not a store to repair.
func (w *writer) bulkSession(ctx context.Context) (func(), error) {
	var set, reset []string
	switch w.dialect {
	case migrations.SQLite:
		var sync, fk string
		if err := w.conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
			return nil, err
		}
		if err := w.conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
			return nil, err
		}
		set = []string{"PRAGMA synchronous = OFF", "PRAGMA foreign_keys = OFF"}
		reset = []string{"PRAGMA synchronous = " + sync, "PRAGMA foreign_keys = " + fk}
	case migrations.Postgres:
		set, reset = []string{"SET synchronous_commit = off"}, []string{"RESET synchronous_commit"}
	case migrations.MySQL:
		set = []string{"SET SESSION unique_checks = 0, foreign_key_checks = 0"}
		reset = []string{"SET SESSION unique_checks = 1, foreign_key_checks = 1"}
	}
	for _, q := range set {
		if _, err := w.conn.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("seed: %s: %w", q, err)
		}
	}
	return func() {
		for _, q := range reset {
			w.conn.ExecContext(context.WithoutCancel(ctx), q) //nolint:errcheck // best effort; the connection is returned either way
		}
	}, nil
}

// dropIndexes drops the secondary indexes of the bulk-loaded tables and returns the statements
// that create them again. Primary keys stay, and on MySQL/MariaDB unique indexes and those a
// foreign key needs (InnoDB refuses to drop them; unique_checks is off for the load).
func (w *writer) dropIndexes(ctx context.Context) ([]string, error) {
	in := "('" + strings.Join(loadedTables, "', '") + "')"
	switch w.dialect {
	case migrations.SQLite:
		return w.dropListed(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "+
			"AND tbl_name IN "+in, func(name string) string { return "DROP INDEX " + name })
	case migrations.Postgres:
		return w.dropListed(ctx, "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = current_schema() "+
			"AND i.tablename IN "+in+" "+
			"AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
			func(name string) string { return "DROP INDEX " + name })
	}
	return w.dropMySQL(ctx, in)
}

// dropListed runs list (rows of index name and its CREATE statement), drops each index and
// returns the CREATE statements.
func (w *writer) dropListed(ctx context.Context, list string, drop func(name string) string) ([]string, error) {
	rows, err := w.conn.QueryContext(ctx, list)
	if err != nil {
		return nil, fmt.Errorf("seed: list indexes: %w", err)
	}
	var names, creates []string
	for rows.Next() {
		var name, create string
		if err := rows.Scan(&name, &create); err != nil {
			rows.Close()
			return nil, err
		}
		names, creates = append(names, name), append(creates, create)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, name := range names {
		if _, err := w.conn.ExecContext(ctx, drop(name)); err != nil {
			return nil, fmt.Errorf("seed: drop index %s: %w", name, err)
		}
	}
	return creates, nil
}

// dropMySQL drops the non-unique secondary indexes of the tables in `in` whose first column
// is not a foreign key column, one ALTER TABLE per table, and returns one ALTER TABLE per
// table that adds them all back (InnoDB builds them in one pass over the rows).
func (w *writer) dropMySQL(ctx context.Context, in string) ([]string, error) {
	rows, err := w.conn.QueryContext(ctx, `SELECT s.table_name, s.index_name, s.column_name, s.sub_part, COALESCE(s.collation, 'A')
		FROM information_schema.statistics s
		WHERE s.table_schema = DATABASE() AND s.table_name IN `+in+` AND s.non_unique = 1
		  AND s.index_name NOT IN (
		    SELECT f.index_name FROM information_schema.statistics f
		    JOIN information_schema.key_column_usage k ON k.table_schema = f.table_schema AND k.table_name = f.table_name
		      AND k.column_name = f.column_name AND k.referenced_table_name IS NOT NULL
		    WHERE f.table_schema = DATABASE() AND f.table_name = s.table_name AND f.seq_in_index = 1)
		ORDER BY s.table_name, s.index_name, s.seq_in_index`)
	if err != nil {
		return nil, fmt.Errorf("seed: list indexes: %w", err)
	}
	type index struct{ table, name, columns string }
	var list []index
	for rows.Next() {
		var table, name, column, collation string
		var sub sql.NullInt64
		if err := rows.Scan(&table, &name, &column, &sub, &collation); err != nil {
			rows.Close()
			return nil, err
		}
		col := column
		if sub.Valid {
			col += "(" + strconv.FormatInt(sub.Int64, 10) + ")"
		}
		if collation == "D" {
			col += " DESC"
		}
		if n := len(list); n > 0 && list[n-1].table == table && list[n-1].name == name {
			list[n-1].columns += ", " + col
			continue
		}
		list = append(list, index{table, name, col})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var drops, adds []string
	var creates []string
	for i, x := range list {
		drops = append(drops, "DROP INDEX "+x.name)
		adds = append(adds, "ADD INDEX "+x.name+" ("+x.columns+")")
		if i == len(list)-1 || list[i+1].table != x.table {
			if _, err := w.conn.ExecContext(ctx, "ALTER TABLE "+x.table+" "+strings.Join(drops, ", ")); err != nil {
				return nil, fmt.Errorf("seed: drop indexes of %s: %w", x.table, err)
			}
			creates = append(creates, "ALTER TABLE "+x.table+" "+strings.Join(adds, ", "))
			drops, adds = nil, nil
		}
	}
	return creates, nil
}

// analyze refreshes the planner statistics of the loaded tables.
func (w *writer) analyze(ctx context.Context) error {
	var q string
	switch w.dialect {
	case migrations.SQLite:
		q = "ANALYZE"
	case migrations.Postgres:
		q = "VACUUM ANALYZE" // what autovacuum leaves behind: statistics and a visibility map
	case migrations.MySQL:
		// ANALYZE TABLE answers with a result set, one status row per table.
		rows, err := w.conn.QueryContext(ctx, "ANALYZE TABLE "+strings.Join(loadedTables, ", ")+", user_task_daily_stats, user_task_tenants, user_task_tenant_counters")
		if err != nil {
			return fmt.Errorf("seed: ANALYZE TABLE: %w", err)
		}
		for rows.Next() {
			// drained: the statement finishes with its result
		}
		rows.Close()
		return rows.Err()
	}
	if _, err := w.conn.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("seed: %s: %w", q, err)
	}
	return nil
}

// load writes g's tasks batch by batch, then its rollup and its open-task counter; progress
// hears the tasks written so far after each batch.
func (w *writer) load(ctx context.Context, g *generator, progress func(int)) error {
	total := g.open + g.terminal
	for start := 0; start < total; start += w.batch {
		end := min(total, start+w.batch)
		for i := start; i < end; i++ {
			if err := g.task(i); err != nil {
				return err
			}
		}
		if err := w.flush(ctx, nil, &g.tasks, &g.cands, &g.events, &g.ops, &g.resumes); err != nil {
			return err
		}
		progress(end)
	}
	for k, n := range g.stats {
		g.rollup.add(g.tenant, k.day, k.workflow, k.metric, k.bucket, g.names[k.workflow], n, g.now, k.stripe)
	}
	g.res.Stats = len(g.rollup.rows)
	g.res.Workflows = len(g.names)
	// The open count goes to stripe 0 of the tenant's counter (migration 00008); the store
	// spreads it over its stripes when it first meets the tenant.
	tenant := table{name: "user_task_tenants", columns: []string{"tenant_id", "updated_at"}}
	tenant.add(g.tenant, g.now)
	counter := table{name: "user_task_tenant_counters", columns: []string{"tenant_id", "stripe", "open_tasks", "updated_at"}}
	counter.add(g.tenant, 0, g.open, g.now)
	// A tenant without tasks may still have its rows (at zero): replace them.
	replace := func(tx *sql.Tx) error {
		for _, t := range []string{"user_task_tenant_counters", "user_task_tenants"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t+" WHERE tenant_id = "+w.placeholder(1), g.tenant); err != nil {
				return err
			}
		}
		return nil
	}
	return w.flush(ctx, replace, &g.rollup, &tenant, &counter)
}

// flush writes the tables' rows in one transaction, after first (when not nil), and empties
// them.
func (w *writer) flush(ctx context.Context, first func(*sql.Tx) error, tables ...*table) error {
	tx, err := w.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	if first != nil {
		if err := first(tx); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	for _, t := range tables {
		per := max(1, 20_000/len(t.columns)) // under every dialect's bind limit
		for len(t.rows) > 0 {
			n := min(per, len(t.rows))
			if _, err := tx.ExecContext(ctx, w.insert(t.name, t.columns, n), flat(t.rows[:n])...); err != nil {
				return fmt.Errorf("seed: insert %s: %w", t.name, err)
			}
			t.rows = t.rows[n:]
		}
		t.rows = nil
	}
	return tx.Commit()
}

func flat(rows [][]any) []any {
	out := make([]any, 0, len(rows)*len(rows[0]))
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// insert is a multi-row INSERT of n rows with the dialect's placeholders.
func (w *writer) insert(name string, columns []string, n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + name + " (" + strings.Join(columns, ", ") + ") VALUES ")
	p := 0
	for r := range n {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range columns {
			if c > 0 {
				b.WriteString(", ")
			}
			p++
			b.WriteString(w.placeholder(p))
		}
		b.WriteByte(')')
	}
	return b.String()
}
