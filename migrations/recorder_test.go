package migrations

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a database/sql driver standing in for the SQL Server and Oracle servers this
// machine does not have. goose runs against it exactly as against a server: it parses the
// migration files and sends each statement. The recorder keeps every migration statement (the
// text the DDL parser then reads), tracks which tables exist, and emulates goose's version table
// for the statements of goose's SQL Server store and of our Oracle store. It is not a SQL engine:
// a statement it does not recognise is an error, so nothing passes by being ignored.
type recorder struct {
	dialect Dialect

	mu         sync.Mutex
	statements []recordedStatement // migration statements, in order
	storeSQL   []string            // version-table statements, in order
	tables     map[string]bool     // tables created by migrations and not dropped
	created    bool                // the version table exists
	nextID     int64
	versions   []recordedVersion
}

type recordedStatement struct {
	SQL  string
	InTx bool
}

type recordedVersion struct {
	id      int64
	version int64
	applied bool
	tstamp  time.Time
}

func newRecorder(d Dialect) *recorder {
	return &recorder{dialect: d, tables: map[string]bool{}}
}

// DB returns a *sql.DB whose connections all talk to r.
func (r *recorder) DB(t testing.TB) *sql.DB {
	t.Helper()
	db := sql.OpenDB(recConnector{r})
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// Statements returns the migration statements received so far.
func (r *recorder) Statements() []recordedStatement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.statements)
}

// StoreSQL returns the version-table statements received so far.
func (r *recorder) StoreSQL() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.storeSQL)
}

// Tables returns the tables that migrations created and did not drop, sorted.
func (r *recorder) Tables() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for name := range r.tables {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

var (
	recCreateTable = regexp.MustCompile(`(?is)^\s*CREATE\s+TABLE\s+(\w+)`)
	recDropTable   = regexp.MustCompile(`(?is)^\s*DROP\s+TABLE\s+(\w+)`)
	recCreateIndex = regexp.MustCompile(`(?is)^\s*CREATE\s+(UNIQUE\s+)?INDEX\s+\w+\s+ON\s+(\w+)`)
	recDropIndex   = regexp.MustCompile(`(?is)^\s*DROP\s+INDEX\s+\w+(\s+ON\s+(\w+))?`)
	recDataChange  = regexp.MustCompile(`(?is)^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|ALTER\s+TABLE)\s+(\w+)`)
)

func (r *recorder) isStoreSQL(query string) bool {
	q := strings.ToLower(query)
	return strings.Contains(q, strings.ToLower(VersionTable)) ||
		strings.Contains(q, "user_tables") || strings.Contains(q, "all_tables")
}

func (r *recorder) exec(query string, args []driver.NamedValue, inTx bool) (driver.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.isStoreSQL(query) {
		r.storeSQL = append(r.storeSQL, query)
		return r.storeExec(query, args)
	}
	r.statements = append(r.statements, recordedStatement{SQL: query, InTx: inTx})
	switch {
	case recCreateTable.MatchString(query):
		name := strings.ToLower(recCreateTable.FindStringSubmatch(query)[1])
		if r.tables[name] {
			return nil, fmt.Errorf("recorder: table %s already exists", name)
		}
		r.tables[name] = true
	case recDropTable.MatchString(query):
		name := strings.ToLower(recDropTable.FindStringSubmatch(query)[1])
		if !r.tables[name] {
			return nil, fmt.Errorf("recorder: table %s does not exist", name)
		}
		delete(r.tables, name)
	case recCreateIndex.MatchString(query):
		name := strings.ToLower(recCreateIndex.FindStringSubmatch(query)[2])
		if !r.tables[name] {
			return nil, fmt.Errorf("recorder: index on missing table %s", name)
		}
	case recDropIndex.MatchString(query):
		if on := recDropIndex.FindStringSubmatch(query)[2]; on != "" && !r.tables[strings.ToLower(on)] {
			return nil, fmt.Errorf("recorder: index dropped from missing table %s", on)
		}
	case recDataChange.MatchString(query):
		if name := strings.ToLower(recDataChange.FindStringSubmatch(query)[1]); !r.tables[name] {
			return nil, fmt.Errorf("recorder: data or column change on missing table %s", name)
		}
	default:
		return nil, fmt.Errorf("recorder: unexpected migration statement %q", query)
	}
	return driver.RowsAffected(0), nil
}

func (r *recorder) storeExec(query string, args []driver.NamedValue) (driver.Result, error) {
	q := strings.ToLower(strings.TrimSpace(query))
	switch {
	case strings.HasPrefix(q, "create table"):
		if r.created {
			return nil, errors.New("recorder: version table already exists")
		}
		r.created = true
		return driver.RowsAffected(0), nil
	case !r.created:
		return nil, errors.New("recorder: version table does not exist")
	case strings.HasPrefix(q, "insert into"):
		if len(args) != 2 {
			return nil, fmt.Errorf("recorder: insert wants 2 arguments, got %d", len(args))
		}
		version, err := asInt64(args[0].Value)
		if err != nil {
			return nil, err
		}
		applied, err := asInt64(args[1].Value)
		if err != nil {
			return nil, err
		}
		r.nextID++
		r.versions = append(r.versions, recordedVersion{
			id: r.nextID, version: version, applied: applied != 0,
			tstamp: time.Now().UTC().Add(time.Duration(r.nextID) * time.Microsecond),
		})
		return driver.RowsAffected(1), nil
	case strings.HasPrefix(q, "delete from"):
		if len(args) != 1 {
			return nil, fmt.Errorf("recorder: delete wants 1 argument, got %d", len(args))
		}
		version, err := asInt64(args[0].Value)
		if err != nil {
			return nil, err
		}
		n := len(r.versions)
		r.versions = slices.DeleteFunc(r.versions, func(v recordedVersion) bool { return v.version == version })
		return driver.RowsAffected(int64(n - len(r.versions))), nil
	}
	return nil, fmt.Errorf("recorder: unexpected version-table statement %q", query)
}

func (r *recorder) query(query string, args []driver.NamedValue) (driver.Rows, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.isStoreSQL(query) {
		return nil, fmt.Errorf("recorder: unexpected query %q", query)
	}
	r.storeSQL = append(r.storeSQL, query)
	q := strings.ToLower(strings.TrimSpace(query))
	if strings.Contains(q, "user_tables") || strings.Contains(q, "all_tables") {
		n := int64(0)
		if r.created {
			n = 1
		}
		return &recRows{cols: []string{"count"}, data: [][]driver.Value{{r.number(n)}}}, nil
	}
	if !r.created {
		return nil, errors.New("recorder: version table does not exist")
	}
	newestFirst := slices.Clone(r.versions)
	slices.Reverse(newestFirst)
	switch {
	case strings.Contains(q, "max(version_id)"):
		if len(r.versions) == 0 {
			return &recRows{cols: []string{"max"}, data: [][]driver.Value{{nil}}}, nil
		}
		highest := slices.MaxFunc(r.versions, func(a, b recordedVersion) int { return int(a.version - b.version) })
		return &recRows{cols: []string{"max"}, data: [][]driver.Value{{r.number(highest.version)}}}, nil
	case strings.Contains(q, "select version_id, is_applied"):
		rows := &recRows{cols: []string{"version_id", "is_applied"}}
		for _, v := range newestFirst {
			rows.data = append(rows.data, []driver.Value{r.number(v.version), r.boolean(v.applied)})
		}
		return rows, nil
	case strings.Contains(q, "tstamp, is_applied"):
		if len(args) != 1 {
			return nil, fmt.Errorf("recorder: get migration wants 1 argument, got %d", len(args))
		}
		version, err := asInt64(args[0].Value)
		if err != nil {
			return nil, err
		}
		rows := &recRows{cols: []string{"tstamp", "is_applied"}}
		for _, v := range newestFirst {
			if v.version == version {
				rows.data = append(rows.data, []driver.Value{v.tstamp, r.boolean(v.applied)})
				break
			}
		}
		return rows, nil
	}
	return nil, fmt.Errorf("recorder: unexpected version-table query %q", query)
}

// number returns n as the dialect's driver does: go-ora hands NUMBER values over as text.
func (r *recorder) number(n int64) driver.Value {
	if r.dialect == Oracle {
		return strconv.FormatInt(n, 10)
	}
	return n
}

func (r *recorder) boolean(b bool) driver.Value {
	if r.dialect == Oracle {
		if b {
			return "1"
		}
		return "0"
	}
	return b
}

func asInt64(v driver.Value) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	case string:
		return strconv.ParseInt(v, 10, 64)
	}
	return 0, fmt.Errorf("recorder: unexpected argument %T", v)
}

type recConnector struct{ r *recorder }

func (c recConnector) Connect(context.Context) (driver.Conn, error) { return &recConn{r: c.r}, nil }
func (c recConnector) Driver() driver.Driver                        { return recDriver{} }

type recDriver struct{}

func (recDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("recorder: open through sql.OpenDB")
}

type recConn struct {
	r    *recorder
	inTx bool
}

var (
	_ driver.ExecerContext  = (*recConn)(nil)
	_ driver.QueryerContext = (*recConn)(nil)
	_ driver.ConnBeginTx    = (*recConn)(nil)
)

func (c *recConn) Prepare(query string) (driver.Stmt, error) {
	return &recStmt{c: c, query: query}, nil
}
func (c *recConn) Close() error { return nil }
func (c *recConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *recConn) BeginTx(context.Context, driver.TxOptions) (driver.Tx, error) {
	if c.inTx {
		return nil, errors.New("recorder: nested transaction")
	}
	c.inTx = true
	return recTx{c}, nil
}

func (c *recConn) ExecContext(_ context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.r.exec(query, args, c.inTx)
}

func (c *recConn) QueryContext(_ context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.r.query(query, args)
}

type recTx struct{ c *recConn }

func (tx recTx) Commit() error   { tx.c.inTx = false; return nil }
func (tx recTx) Rollback() error { tx.c.inTx = false; return nil }

type recStmt struct {
	c     *recConn
	query string
}

func (s *recStmt) Close() error  { return nil }
func (s *recStmt) NumInput() int { return -1 }

func (s *recStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.c.ExecContext(context.Background(), s.query, named(args))
}

func (s *recStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.c.QueryContext(context.Background(), s.query, named(args))
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

type recRows struct {
	cols []string
	data [][]driver.Value
	next int
}

func (r *recRows) Columns() []string { return r.cols }
func (r *recRows) Close() error      { return nil }

func (r *recRows) Next(dest []driver.Value) error {
	if r.next >= len(r.data) {
		return io.EOF
	}
	copy(dest, r.data[r.next])
	r.next++
	return nil
}
