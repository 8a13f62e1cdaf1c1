package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Introspection reads the schema a live database actually holds back into the logical
// description: SQLite through its pragmas, PostgreSQL through information_schema and pg_index,
// MySQL through information_schema. goose's version table is left out. Besides the tables it
// returns problems: physical facts the logical description cannot express but the migrations
// promise (binary collations, InnoDB, no prefix, partial, expression or descending indexes).

type introspection struct {
	Tables   []Table
	Problems []string
}

func introspect(ctx context.Context, d Dialect, db *sql.DB) (introspection, error) {
	switch d {
	case SQLite:
		return introspectSQLite(ctx, db)
	case Postgres:
		return introspectPostgres(ctx, db)
	case MySQL:
		return introspectMySQL(ctx, db)
	}
	return introspection{}, fmt.Errorf("cannot introspect %s here", d)
}

// userTables lists the tables of the database apart from goose's version table.
func userTables(ctx context.Context, d Dialect, db *sql.DB) ([]string, error) {
	var query string
	switch d {
	case SQLite:
		query = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
	case Postgres:
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`
	case MySQL:
		query = `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`
	default:
		return nil, fmt.Errorf("cannot list tables of %s here", d)
	}
	names, err := queryStrings(ctx, db, query)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if !strings.EqualFold(n, VersionTable) && !(d == SQLite && IsSearchIndexTable(n)) {
			out = append(out, n)
		}
	}
	slices.Sort(out) // byte order, whatever the catalog's collation
	return out, nil
}

func queryStrings(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// tableSet collects introspected rows into tables in first-seen order.
type tableSet struct {
	tables []Table
	byName map[string]int
}

func (s *tableSet) table(name string) *Table {
	if s.byName == nil {
		s.byName = map[string]int{}
	}
	i, ok := s.byName[name]
	if !ok {
		s.tables = append(s.tables, Table{Name: name})
		i = len(s.tables) - 1
		s.byName[name] = i
	}
	return &s.tables[i]
}

// indexOf returns the named index of t, adding it when new.
func indexOf(t *Table, name string, unique bool) *Index {
	for i := range t.Indexes {
		if t.Indexes[i].Name == name {
			return &t.Indexes[i]
		}
	}
	t.Indexes = append(t.Indexes, Index{Name: name, Unique: unique})
	return &t.Indexes[len(t.Indexes)-1]
}

var reVarchar = regexp.MustCompile(`^VARCHAR\((\d+)\)$`)

// sqliteType maps the declared type of a SQLite column back to the logical type.
func sqliteType(declared string) (Type, int, error) {
	t := strings.ToUpper(strings.TrimSpace(declared))
	if m := reVarchar.FindStringSubmatch(t); m != nil {
		n, _ := strconv.Atoi(m[1])
		return Varchar, n, nil
	}
	switch Type(t) {
	case Text, Integer, BigInt, Boolean, Timestamp:
		return Type(t), 0, nil
	case "BLOB":
		return Binary, 0, nil
	}
	return "", 0, fmt.Errorf("unknown SQLite type %q", declared)
}

func introspectSQLite(ctx context.Context, db *sql.DB) (introspection, error) {
	var out introspection
	names, err := userTables(ctx, SQLite, db)
	if err != nil {
		return out, err
	}
	for _, name := range names {
		t := Table{Name: name}
		// Columns and primary key.
		rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, name)
		if err != nil {
			return out, err
		}
		pk := map[int]string{}
		for rows.Next() {
			var (
				col, declared string
				notNull, pos  int
			)
			if err := rows.Scan(&col, &declared, &notNull, &pos); err != nil {
				rows.Close()
				return out, err
			}
			typ, length, err := sqliteType(declared)
			if err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("%s.%s: %v", name, col, err))
			}
			t.Columns = append(t.Columns, Column{Name: col, Type: typ, Length: length, Nullable: notNull == 0})
			if pos > 0 {
				pk[pos] = col
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, err
		}
		for i := 1; i <= len(pk); i++ {
			t.PrimaryKey = append(t.PrimaryKey, pk[i])
		}
		// Indexes: those created by CREATE INDEX ('c') or a UNIQUE constraint ('u'); the primary
		// key's own index ('pk') is the primary key above.
		type idx struct {
			name    string
			unique  bool
			partial bool
		}
		var idxs []idx
		rows, err = db.QueryContext(ctx, `SELECT name, "unique", origin, partial FROM pragma_index_list(?)`, name)
		if err != nil {
			return out, err
		}
		for rows.Next() {
			var (
				iname, origin   string
				unique, partial int
			)
			if err := rows.Scan(&iname, &unique, &origin, &partial); err != nil {
				rows.Close()
				return out, err
			}
			if origin != "pk" {
				idxs = append(idxs, idx{iname, unique == 1, partial == 1})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, err
		}
		for _, ix := range idxs {
			if ix.partial {
				out.Problems = append(out.Problems, fmt.Sprintf("index %s is partial", ix.name))
			}
			got := Index{Name: ix.name, Unique: ix.unique}
			rows, err := db.QueryContext(ctx, `SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, ix.name)
			if err != nil {
				return out, err
			}
			for rows.Next() {
				var (
					col  sql.NullString
					desc int
					coll string
				)
				if err := rows.Scan(&col, &desc, &coll); err != nil {
					rows.Close()
					return out, err
				}
				if !col.Valid {
					out.Problems = append(out.Problems, fmt.Sprintf("index %s has an expression", ix.name))
				}
				if desc != 0 {
					out.Problems = append(out.Problems, fmt.Sprintf("index %s: %s is descending", ix.name, col.String))
				}
				if coll != "BINARY" {
					out.Problems = append(out.Problems, fmt.Sprintf("index %s: %s collates %s, want BINARY", ix.name, col.String, coll))
				}
				got.Columns = append(got.Columns, col.String)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return out, err
			}
			t.Indexes = append(t.Indexes, got)
		}
		// Foreign keys, grouped by id in column order.
		rows, err = db.QueryContext(ctx, `SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
		if err != nil {
			return out, err
		}
		byID := map[int]int{}
		for rows.Next() {
			var (
				id                  int
				ref, from, to, rule string
			)
			if err := rows.Scan(&id, &ref, &from, &to, &rule); err != nil {
				rows.Close()
				return out, err
			}
			i, ok := byID[id]
			if !ok {
				t.ForeignKeys = append(t.ForeignKeys, ForeignKey{RefTable: ref, OnDeleteCascade: rule == "CASCADE"})
				i = len(t.ForeignKeys) - 1
				byID[id] = i
			}
			t.ForeignKeys[i].Columns = append(t.ForeignKeys[i].Columns, from)
			t.ForeignKeys[i].RefColumns = append(t.ForeignKeys[i].RefColumns, to)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, err
		}
		out.Tables = append(out.Tables, t)
	}
	return out, nil
}

// postgresType maps information_schema's data_type (with length and precision) back.
func postgresType(dataType string, length, precision sql.NullInt64) (Type, int, error) {
	switch dataType {
	case "character varying":
		return Varchar, int(length.Int64), nil
	case "text":
		return Text, 0, nil
	case "integer":
		return Integer, 0, nil
	case "bigint":
		return BigInt, 0, nil
	case "boolean":
		return Boolean, 0, nil
	case "bytea":
		return Binary, 0, nil
	case "timestamp with time zone":
		if precision.Int64 == 6 {
			return Timestamp, 0, nil
		}
	}
	return "", 0, fmt.Errorf("unknown PostgreSQL type %s (length %v, precision %v)", dataType, length.Int64, precision.Int64)
}

func introspectPostgres(ctx context.Context, db *sql.DB) (introspection, error) {
	var (
		out introspection
		set tableSet
	)
	skip := func(table string) bool { return strings.EqualFold(table, VersionTable) }
	names, err := userTables(ctx, Postgres, db)
	if err != nil {
		return out, err
	}
	for _, n := range names {
		set.table(n)
	}

	rows, err := db.QueryContext(ctx, `
SELECT table_name, column_name, data_type, character_maximum_length, datetime_precision, is_nullable
FROM information_schema.columns
WHERE table_schema = current_schema()
ORDER BY table_name, ordinal_position`)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var (
			table, col, dataType, nullable string
			length, precision              sql.NullInt64
		)
		if err := rows.Scan(&table, &col, &dataType, &length, &precision, &nullable); err != nil {
			rows.Close()
			return out, err
		}
		if skip(table) {
			continue
		}
		typ, n, err := postgresType(dataType, length, precision)
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s.%s: %v", table, col, err))
		}
		t := set.table(table)
		t.Columns = append(t.Columns, Column{Name: col, Type: typ, Length: n, Nullable: nullable == "YES"})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}

	// Indexes (the primary key's among them), columns in key order.
	rows, err = db.QueryContext(ctx, `
SELECT t.relname, i.relname, ix.indisunique, ix.indisprimary, ix.indpred IS NOT NULL,
       a.attname, (ix.indoption[(k.ord - 1)::int] & 1) = 1
FROM pg_index ix
JOIN pg_class t ON t.oid = ix.indrelid
JOIN pg_class i ON i.oid = ix.indexrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
WHERE n.nspname = current_schema()
ORDER BY t.relname, i.relname, k.ord`)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var (
			table, iname             string
			unique, primary, partial bool
			col                      sql.NullString
			descending               bool
		)
		if err := rows.Scan(&table, &iname, &unique, &primary, &partial, &col, &descending); err != nil {
			rows.Close()
			return out, err
		}
		if skip(table) || iname == PostgresSearchIndex {
			continue
		}
		if partial {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s is partial", iname))
		}
		if !col.Valid {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s has an expression", iname))
		}
		if descending {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s: %s is descending", iname, col.String))
		}
		t := set.table(table)
		if primary {
			t.PrimaryKey = append(t.PrimaryKey, col.String)
			continue
		}
		ix := indexOf(t, iname, unique)
		ix.Columns = append(ix.Columns, col.String)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}

	// Foreign keys, columns paired in order.
	rows, err = db.QueryContext(ctx, `
SELECT t.relname, c.conname, rt.relname, c.confdeltype::text, a.attname, ra.attname
FROM pg_constraint c
JOIN pg_class t ON t.oid = c.conrelid
JOIN pg_class rt ON rt.oid = c.confrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, refattnum, ord)
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = k.refattnum
WHERE c.contype = 'f' AND n.nspname = current_schema()
ORDER BY t.relname, c.conname, k.ord`)
	if err != nil {
		return out, err
	}
	fks := map[string]int{}
	for rows.Next() {
		var table, cname, ref, rule, col, refCol string
		if err := rows.Scan(&table, &cname, &ref, &rule, &col, &refCol); err != nil {
			rows.Close()
			return out, err
		}
		t := set.table(table)
		key := table + "." + cname
		i, ok := fks[key]
		if !ok {
			t.ForeignKeys = append(t.ForeignKeys, ForeignKey{RefTable: ref, OnDeleteCascade: rule == "c"})
			i = len(t.ForeignKeys) - 1
			fks[key] = i
		}
		t.ForeignKeys[i].Columns = append(t.ForeignKeys[i].Columns, col)
		t.ForeignKeys[i].RefColumns = append(t.ForeignKeys[i].RefColumns, refCol)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	out.Tables = set.tables
	return out, nil
}

var (
	reMySQLVarchar = regexp.MustCompile(`^varchar\((\d+)\)$`)
	reMySQLWidth   = regexp.MustCompile(`^(int|bigint)(\(\d+\))?$`)
)

// mysqlType maps information_schema's COLUMN_TYPE back (MariaDB and MySQL 5.7 show display
// widths such as int(11); MySQL 8 does not, except for tinyint(1)).
func mysqlType(columnType string) (Type, int, error) {
	ct := strings.ToLower(columnType)
	if m := reMySQLVarchar.FindStringSubmatch(ct); m != nil {
		n, _ := strconv.Atoi(m[1])
		return Varchar, n, nil
	}
	if m := reMySQLWidth.FindStringSubmatch(ct); m != nil {
		if m[1] == "int" {
			return Integer, 0, nil
		}
		return BigInt, 0, nil
	}
	switch ct {
	case "longtext":
		return Text, 0, nil
	case "tinyint(1)":
		return Boolean, 0, nil
	case "longblob":
		return Binary, 0, nil
	case "datetime(6)":
		return Timestamp, 0, nil
	}
	return "", 0, fmt.Errorf("unknown MySQL type %q", columnType)
}

const (
	mysqlEngine    = "InnoDB"
	mysqlCharset   = "utf8mb4"
	mysqlCollation = "utf8mb4_bin"
)

func introspectMySQL(ctx context.Context, db *sql.DB) (introspection, error) {
	var (
		out introspection
		set tableSet
	)
	skip := func(table string) bool { return strings.EqualFold(table, VersionTable) }

	rows, err := db.QueryContext(ctx, `
SELECT TABLE_NAME, COALESCE(ENGINE, ''), COALESCE(TABLE_COLLATION, '')
FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE()
ORDER BY TABLE_NAME`)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var table, engine, collation string
		if err := rows.Scan(&table, &engine, &collation); err != nil {
			rows.Close()
			return out, err
		}
		if skip(table) {
			continue
		}
		set.table(table)
		if engine != mysqlEngine {
			out.Problems = append(out.Problems, fmt.Sprintf("table %s: engine %s, want %s", table, engine, mysqlEngine))
		}
		if collation != mysqlCollation {
			out.Problems = append(out.Problems, fmt.Sprintf("table %s: collation %s, want %s", table, collation, mysqlCollation))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}

	rows, err = db.QueryContext(ctx, `
SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE,
       COALESCE(CHARACTER_SET_NAME, ''), COALESCE(COLLATION_NAME, '')
FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = DATABASE()
ORDER BY TABLE_NAME, ORDINAL_POSITION`)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var table, col, columnType, nullable, charset, collation string
		if err := rows.Scan(&table, &col, &columnType, &nullable, &charset, &collation); err != nil {
			rows.Close()
			return out, err
		}
		if skip(table) {
			continue
		}
		typ, n, err := mysqlType(columnType)
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s.%s: %v", table, col, err))
		}
		if typ == Varchar || typ == Text {
			if charset != mysqlCharset || collation != mysqlCollation {
				out.Problems = append(out.Problems, fmt.Sprintf("%s.%s: %s/%s, want %s/%s", table, col, charset, collation, mysqlCharset, mysqlCollation))
			}
		}
		t := set.table(table)
		t.Columns = append(t.Columns, Column{Name: col, Type: typ, Length: n, Nullable: nullable == "YES"})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}

	rows, err = db.QueryContext(ctx, `
SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART IS NOT NULL, COALESCE(COLLATION, 'A')
FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = DATABASE()
ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`)
	if err != nil {
		return out, err
	}
	for rows.Next() {
		var (
			table, iname, col, order string
			nonUnique                int64
			prefix                   bool
		)
		if err := rows.Scan(&table, &iname, &nonUnique, &col, &prefix, &order); err != nil {
			rows.Close()
			return out, err
		}
		if skip(table) {
			continue
		}
		if prefix {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s: %s is a prefix index", iname, col))
		}
		if order != "A" {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s: %s is not ascending", iname, col))
		}
		t := set.table(table)
		if iname == "PRIMARY" {
			t.PrimaryKey = append(t.PrimaryKey, col)
			continue
		}
		ix := indexOf(t, iname, nonUnique == 0)
		ix.Columns = append(ix.Columns, col)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}

	rows, err = db.QueryContext(ctx, `
SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, k.REFERENCED_TABLE_NAME, r.DELETE_RULE,
       k.COLUMN_NAME, k.REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE k
JOIN information_schema.REFERENTIAL_CONSTRAINTS r
  ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
 AND r.TABLE_NAME = k.TABLE_NAME
WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`)
	if err != nil {
		return out, err
	}
	fks := map[string]int{}
	for rows.Next() {
		var table, cname, ref, rule, col, refCol string
		if err := rows.Scan(&table, &cname, &ref, &rule, &col, &refCol); err != nil {
			rows.Close()
			return out, err
		}
		t := set.table(table)
		key := table + "." + cname
		i, ok := fks[key]
		if !ok {
			t.ForeignKeys = append(t.ForeignKeys, ForeignKey{RefTable: ref, OnDeleteCascade: rule == "CASCADE"})
			i = len(t.ForeignKeys) - 1
			fks[key] = i
		}
		t.ForeignKeys[i].Columns = append(t.ForeignKeys[i].Columns, col)
		t.ForeignKeys[i].RefColumns = append(t.ForeignKeys[i].RefColumns, refCol)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	out.Tables = set.tables
	return out, nil
}
