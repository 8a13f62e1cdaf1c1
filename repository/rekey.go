package repository

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/migrations"
	"usertasks/store"
	"usertasks/storekit"
)

// Key rotation: the keyring's first key seals new values and every key opens old ones, so a
// key can be retired only once no row is sealed under it any more. Rekey rewrites the sealed
// columns of one page of a table under the primary key; a run is a walk over every table by
// key order, and a rerun simply finds fewer rows to rewrite.

// sealedTable is a sealed table (storekit.SealedTables) as the SQL store walks it.
type sealedTable struct{ storekit.SealedTable }

// key is the column that orders a walk over the table: its primary key.
func (t sealedTable) key() string {
	if t.Name == "user_task_web_sessions" {
		return "id_hash"
	}
	return "id"
}

// RekeyPage reads up to limit rows of table after the row key after and, unless dryRun,
// reseals every value not under the primary key. A value is replaced only if it is still the
// one read (compare-and-swap), so a concurrent writer's newer value always wins; that writer
// sealed it under the primary key anyway. Unreadable values are reported, never rewritten.
func (s *Store) RekeyPage(ctx context.Context, table string, after string, limit int, dryRun bool) (store.KeyPage, error) {
	if isAttachmentTable(table) {
		return s.rekeyAttachments(ctx, table, after, limit, dryRun)
	}
	t, ok := sealedTableNamed(table)
	if !ok {
		return store.KeyPage{}, fmt.Errorf("repository: %q holds no sealed columns", table)
	}
	if limit <= 0 {
		limit = 500
	}
	var page store.KeyPage
	err := s.inWrite(ctx, func(tx *gorm.DB, _ time.Time) error {
		var err error
		page, err = s.checkSealedPage(tx, t, after, limit, func(key, sealRow, col, env string, plain []byte) (int, error) {
			if dryRun {
				return 1, nil
			}
			sealed, err := s.keys.Seal(plain, storekit.AAD(sealRow, col))
			if err != nil {
				return 0, err
			}
			res := tx.Table(t.Name).Where(t.key()+" = ? AND "+s.sameText(col), key, env).Update(col, sealed)
			return int(res.RowsAffected), translate(res.Error)
		})
		return err
	})
	return page, err
}

// checkSealedPage reads up to limit rows of t after the row key after and looks at each sealed
// value (storekit.Sealer.Check): every one is counted by its key id, an unreadable one names its
// row in Unreadable, and a stale one (under another key than the primary) goes to reseal, which
// reports how many values it rewrote (nil: none is).
func (s *Store) checkSealedPage(tx *gorm.DB, t sealedTable, after string, limit int,
	reseal func(key, sealRow, col, env string, plain []byte) (int, error)) (store.KeyPage, error) {
	page := store.KeyPage{ByKey: map[string]int{}}
	rows, err := readSealed(tx, t, after, limit)
	if err != nil {
		return page, err
	}
	for _, r := range rows {
		page.Rows++
		page.Next = r.key
		sealRow := t.SealRow(r.scope, r.key)
		for i, col := range t.Columns {
			env := r.values[i].String
			stale, plain, err := s.sealer().TallyRow(&page, r.key, sealRow, col, env)
			if err != nil {
				return page, err
			}
			if !stale || reseal == nil {
				continue
			}
			n, err := reseal(r.key, sealRow, col, env, plain)
			if err != nil {
				return page, err
			}
			page.Resealed += n
		}
	}
	if page.Rows < limit {
		page.Next = ""
	}
	return page, nil
}

// sameText is a condition that col still holds the bound text. Oracle cannot compare a CLOB
// with = (ORA-00932).
func (s *Store) sameText(col string) string {
	if s.dialect == migrations.Oracle {
		return "DBMS_LOB.COMPARE(" + col + ", ?) = 0"
	}
	return col + " = ?"
}

func sealedTableNamed(name string) (sealedTable, bool) {
	t, ok := storekit.SealedTableNamed(name)
	return sealedTable{t}, ok
}

type sealedRow struct {
	key    string
	scope  []string // the values of the table's Scope columns
	values []sql.NullString
}

// dest are the scan destinations of a row read as key, then extra, then the Scope columns,
// then the sealed columns.
func (r *sealedRow) dest(extra ...any) []any {
	d := append([]any{&r.key}, extra...)
	for i := range r.scope {
		d = append(d, &r.scope[i])
	}
	for i := range r.values {
		d = append(d, &r.values[i])
	}
	return d
}

func newSealedRow(t sealedTable) sealedRow {
	return sealedRow{scope: make([]string, len(t.Scope)), values: make([]sql.NullString, len(t.Columns))}
}

func readSealed(tx *gorm.DB, t sealedTable, after string, limit int) ([]sealedRow, error) {
	cols := append(append([]string{t.key()}, t.Scope...), t.Columns...)
	q := tx.Table(t.Name).Select(cols).Order(t.key()).Limit(limit)
	if after != "" {
		q = q.Where(t.key()+" > ?", after)
	}
	rows, err := q.Rows()
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []sealedRow
	for rows.Next() {
		r := newSealedRow(t)
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, translate(err)
		}
		out = append(out, r)
	}
	return out, translate(rows.Err())
}
