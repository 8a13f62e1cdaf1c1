package repository

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// fakeServer is a database/sql driver standing in for the SQL Server and Oracle servers this
// machine does not have. GORM's sqlserver and oracle dialectors render every statement of the
// store and send it here exactly as they would send it to go-mssqldb or go-ora: the text with
// the dialect's bind markers, and the bound values as Go values. The fake records both (the
// values only by type) with transaction markers, and answers from the scenario's script.
//
// It is not a SQL engine. It answers the Oracle dialector's version probe, the database clock,
// COUNT(*), SELECTs from one table and UNION ALLs of them (rows are the store's own records, so every column it
// reads exists in the fixture), and counts rows affected by writes. A statement it cannot
// place (an unknown verb, a column missing from a fixture record) is an error, so nothing passes
// by being ignored.
type fakeServer struct {
	clockSQL string    // the store's nowSQL()
	now      time.Time // what the database clock answers
	// upperColumns names result columns in upper case, as Oracle does for every unquoted
	// identifier (the real server answers `SELECT tenant_id` with a column named TENANT_ID).
	upperColumns bool
	// numericBools answers boolean columns as 0/1 numbers, as Oracle's NUMBER(1) does.
	numericBools bool

	mu     sync.Mutex
	script fakeScript
	log    []fakeStmt
	nth    map[string]int // statements seen so far per verb and table
}

// fakeScript answers one scenario. Nil functions take the defaults. nth counts from 0 the
// earlier statements of the same verb on the same table in this scenario.
type fakeScript struct {
	// Rows returns the records (taskRecord, candidateRecord, ... values or pointers) the nth
	// SELECT from table finds. Default: none.
	Rows func(table string, nth int) []any
	// Count answers the nth SELECT COUNT(*) from table. Default: 0.
	Count func(table string, nth int) int64
	// Affected is the row count of the nth INSERT/UPDATE/DELETE on table. Default: 1 per
	// inserted row.
	Affected func(verb, table string, nth int) int64
	// Fail makes the nth statement of verb on table fail with the returned error.
	Fail func(verb, table string, nth int) error
}

// fakeStmt is one recorded statement: SQL text as received, or BEGIN/COMMIT/ROLLBACK.
type fakeStmt struct {
	SQL   string
	Binds []string // the Go type of each bound value ("NULL" for nil), in order
}

func newFakeServer(clockSQL string, now time.Time) *fakeServer {
	return &fakeServer{clockSQL: clockSQL, now: now, nth: map[string]int{}}
}

// DB returns a *sql.DB whose connections all talk to f.
func (f *fakeServer) DB() *sql.DB { return sql.OpenDB(fakeConnector{f}) }

// Reset forgets what was recorded and installs a new script.
func (f *fakeServer) Reset(s fakeScript) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script, f.log, f.nth = s, nil, map[string]int{}
}

// Log returns the statements recorded since the last Reset.
func (f *fakeServer) Log() []fakeStmt {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeStmt(nil), f.log...)
}

func (f *fakeServer) record(sqlText string, args []driver.NamedValue) {
	st := fakeStmt{SQL: sqlText}
	for _, a := range args {
		st.Binds = append(st.Binds, bindType(a.Value))
	}
	f.log = append(f.log, st)
}

// bindType names the Go type of a bound value as the driver receives it; pointers are
// followed, since both drivers bind the pointed-to value.
func bindType(v any) string {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "NULL"
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return "NULL"
	}
	return rv.Type().String()
}

// parsed is what the fake needs to know of a statement.
type parsed struct {
	verb    string   // SELECT, INSERT, UPDATE, DELETE, MERGE
	table   string   // the statement's (outer) table
	columns []string // SELECT: the selected expressions; ["*"] for all
	count   bool     // SELECT COUNT(*)
}

func parseStatement(q string) (parsed, error) {
	toks := sqlTokens(q)
	if len(toks) == 0 {
		return parsed{}, errors.New("fake: empty statement")
	}
	p := parsed{verb: strings.ToUpper(toks[0].text)}
	name := func(i int) string {
		if i < len(toks) && toks[i].isName() {
			return toks[i].text
		}
		return ""
	}
	switch p.verb {
	case "SELECT":
		depth, start := 0, 1
		for i := 1; i < len(toks); i++ {
			switch {
			case toks[i].text == "(":
				depth++
			case toks[i].text == ")":
				depth--
			case depth == 0 && toks[i].text == ",":
				p.columns = append(p.columns, joinTokens(toks[start:i]))
				start = i + 1
			case depth == 0 && toks[i].kind == tokWord && strings.EqualFold(toks[i].text, "FROM"):
				p.columns = append(p.columns, joinTokens(toks[start:i]))
				p.table = name(i + 1)
				i = len(toks)
			}
		}
		if len(p.columns) == 1 && strings.EqualFold(strings.ReplaceAll(p.columns[0], " ", ""), "count(*)") {
			p.count = true
		}
	case "INSERT", "MERGE":
		p.table = name(2) // INSERT INTO t / MERGE INTO t
	case "UPDATE":
		p.table = name(1)
	case "DELETE":
		p.table = name(2) // DELETE FROM t
	default:
		return p, fmt.Errorf("fake: unexpected statement %q", q)
	}
	if p.table == "" {
		return p, fmt.Errorf("fake: no table in %q", q)
	}
	return p, nil
}

func joinTokens(ts []sqlToken) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
	}
	return b.String()
}

func (f *fakeServer) next(verb, table string) int {
	key := verb + " " + table
	n := f.nth[key]
	f.nth[key] = n + 1
	return n
}

func (f *fakeServer) exec(q string, args []driver.NamedValue) (driver.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(q, args)
	p, err := parseStatement(q)
	if err != nil {
		return nil, err
	}
	if p.verb == "SELECT" {
		return nil, fmt.Errorf("fake: SELECT sent as an exec: %q", q)
	}
	n := f.next(p.verb, p.table)
	if f.script.Fail != nil {
		if err := f.script.Fail(p.verb, p.table, n); err != nil {
			return nil, err
		}
	}
	if f.script.Affected != nil {
		return driver.RowsAffected(f.script.Affected(p.verb, p.table, n)), nil
	}
	if p.verb == "INSERT" {
		// One row per VALUES tuple (SQL Server batches them; Oracle sends one row at a time).
		return driver.RowsAffected(max(1, strings.Count(q, "),(")+1)), nil
	}
	return driver.RowsAffected(1), nil
}

func (f *fakeServer) query(q string, args []driver.NamedValue) (driver.Rows, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if strings.Contains(q, "product_component_version") {
		// The Oracle dialector's version probe at open; not a statement of the store.
		return &fakeRows{columns: []string{"VERSION"}, rows: [][]driver.Value{{"19.0.0.0.0"}}}, nil
	}
	f.record(q, args)
	if q == f.clockSQL {
		return &fakeRows{columns: []string{"NOW"}, rows: [][]driver.Value{{f.now}}}, nil
	}
	if branches := topLevelUnion(q); len(branches) > 1 {
		return f.union(q, branches)
	}
	p, err := parseStatement(q)
	if err != nil {
		return nil, err
	}
	if p.verb != "SELECT" {
		return nil, fmt.Errorf("fake: %s sent as a query: %q", p.verb, q)
	}
	if p.count {
		n := f.next("COUNT", p.table)
		var c int64
		if f.script.Count != nil {
			c = f.script.Count(p.table, n)
		}
		return &fakeRows{columns: []string{f.columnName("count(*)")}, rows: [][]driver.Value{{c}}}, nil
	}
	return f.selectRows(p, q)
}

// union answers SELECT … UNION ALL SELECT … [ORDER BY …]: each branch from its own table's
// fixture, in branch order, under the first branch's column names (the fake does not sort).
func (f *fakeServer) union(q string, branches []string) (driver.Rows, error) {
	var out *fakeRows
	for _, branch := range branches {
		p, err := parseStatement(branch)
		if err != nil || p.verb != "SELECT" || p.count {
			return nil, fmt.Errorf("fake: a UNION ALL branch must be a plain SELECT: %q", branch)
		}
		rows, err := f.selectRows(p, q)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = rows
			continue
		}
		if len(rows.columns) != len(out.columns) {
			return nil, fmt.Errorf("fake: UNION ALL branches differ in width: %q", q)
		}
		out.rows = append(out.rows, rows.rows...)
	}
	return out, nil
}

// topLevelUnion splits q at its UNION ALLs outside parentheses (one branch when it has none:
// a UNION ALL inside a sub-select, as the history scope's, belongs to the branch), the last
// branch without the outer ORDER BY.
func topLevelUnion(q string) []string {
	const sep = " UNION ALL "
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ' ':
			if depth == 0 && strings.HasPrefix(q[i:], sep) {
				out = append(out, q[start:i])
				start = i + len(sep)
				i += len(sep) - 1
			}
		}
	}
	if out == nil {
		return []string{q}
	}
	last := q[start:]
	if i := strings.LastIndex(last, " ORDER BY "); i >= 0 && !strings.Contains(last[i:], ")") {
		last = last[:i]
	}
	return append(out, last)
}

// constantColumn reads a select-list constant, NULL or an integer, with an optional alias
// (tokens joined without spaces: "0ASrow_kind").
var constantColumn = regexp.MustCompile(`^(?i:(NULL|-?[0-9]+)(?:AS([a-z_]+))?)$`)

func (f *fakeServer) selectRows(p parsed, q string) (*fakeRows, error) {
	n := f.next("SELECT", p.table)
	if f.script.Fail != nil {
		if err := f.script.Fail("SELECT", p.table, n); err != nil {
			return nil, err
		}
	}
	var recs []any
	if f.script.Rows != nil {
		recs = f.script.Rows(p.table, n)
	}
	out := &fakeRows{}
	all := len(p.columns) == 1 && p.columns[0] == "*"
	if all {
		cols, err := recordColumns(p.table)
		if err != nil {
			return nil, err
		}
		p.columns = cols
	}
	for _, c := range p.columns {
		if m := constantColumn.FindStringSubmatch(c); m != nil && m[2] != "" {
			c = m[2]
		}
		out.columns = append(out.columns, f.columnName(c))
	}
	for _, rec := range recs {
		values, err := recordValues(p.table, rec)
		if err != nil {
			return nil, err
		}
		row := make([]driver.Value, len(p.columns))
		for i, c := range p.columns {
			if m := constantColumn.FindStringSubmatch(c); m != nil {
				if !strings.EqualFold(m[1], "NULL") {
					v, _ := strconv.ParseInt(m[1], 10, 64)
					row[i] = v
				}
				continue
			}
			col := unquote(c)
			if j := strings.LastIndexByte(col, '.'); j >= 0 {
				col = col[j+1:]
			}
			v, ok := values[col]
			if !ok {
				return nil, fmt.Errorf("fake: column %q is not in the %s fixture (%q)", c, p.table, q)
			}
			if b, isBool := v.(bool); isBool && f.numericBools {
				v = int64(0)
				if b {
					v = int64(1)
				}
			}
			row[i] = v
		}
		out.rows = append(out.rows, row)
	}
	return out, nil
}

func (f *fakeServer) columnName(c string) string {
	c = unquote(c)
	if f.upperColumns {
		return strings.ToUpper(c)
	}
	return c
}

func unquote(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, `"`, ""), "`", "") }

// fixtureTypes maps each table to the record type the store maps it with.
var fixtureTypes = map[string]reflect.Type{}

func init() {
	for _, r := range []interface{ TableName() string }{
		taskRecord{}, tagRecord{}, candidateRecord{}, exclusionRecord{}, eventRecord{}, operationRecord{},
		resumptionRecord{}, invitationRecord{}, deliveryRecord{}, leaseRecord{}, tenantRecord{}, tenantCounterRecord{},
		webSessionRecord{}, guestSessionRecord{}, notificationRecord{}, personRecord{}, commentRecord{}, deadlineRecord{},
		absenceRecord{}, deadlinePolicyRecord{}, policyAuditRecord{},
	} {
		fixtureTypes[r.TableName()] = reflect.TypeOf(r)
	}
}

// recordColumns lists a table's columns in the order of its record's fields.
func recordColumns(table string) ([]string, error) {
	t, ok := fixtureTypes[table]
	if !ok {
		return nil, fmt.Errorf("fake: no record type for table %q", table)
	}
	var cols []string
	walkColumns(reflect.New(t).Elem(), func(col string, _ reflect.Value) { cols = append(cols, col) })
	return cols, nil
}

// recordValues maps the columns of rec (a record of table) to driver values.
func recordValues(table string, rec any) (map[string]driver.Value, error) {
	rv := reflect.ValueOf(rec)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if want := fixtureTypes[table]; rv.Type() != want {
		return nil, fmt.Errorf("fake: a %s fixture given for table %s", rv.Type(), table)
	}
	out := map[string]driver.Value{}
	var err error
	walkColumns(rv, func(col string, v reflect.Value) {
		dv, e := driverValue(v)
		if e != nil && err == nil {
			err = fmt.Errorf("fake: %s.%s: %w", table, col, e)
		}
		out[col] = dv
	})
	return out, err
}

func walkColumns(rv reflect.Value, fn func(col string, v reflect.Value)) {
	for i := 0; i < rv.NumField(); i++ {
		sf := rv.Type().Field(i)
		tag := sf.Tag.Get("gorm")
		if sf.Anonymous && strings.Contains(tag, "embedded") {
			walkColumns(rv.Field(i), fn)
			continue
		}
		for _, part := range strings.Split(tag, ";") {
			if col, ok := strings.CutPrefix(part, "column:"); ok {
				fn(col, rv.Field(i))
			}
		}
	}
}

func driverValue(v reflect.Value) (driver.Value, error) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, nil
		}
		v = v.Elem()
	}
	switch x := v.Interface().(type) {
	case time.Time:
		return x, nil
	case string:
		return x, nil
	case bool:
		return x, nil
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case []byte: // attachment chunks
		return x, nil
	}
	return nil, fmt.Errorf("unsupported fixture type %s", v.Type())
}

// database/sql plumbing.

type fakeConnector struct{ srv *fakeServer }

func (c fakeConnector) Connect(context.Context) (driver.Conn, error) {
	return &fakeConn{srv: c.srv}, nil
}
func (c fakeConnector) Driver() driver.Driver { return fakeDriver{} }

type fakeDriver struct{}

func (fakeDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("fake: open through the connector")
}

type fakeConn struct {
	srv  *fakeServer
	inTx bool
}

var (
	_ driver.ConnBeginTx       = (*fakeConn)(nil)
	_ driver.ExecerContext     = (*fakeConn)(nil)
	_ driver.QueryerContext    = (*fakeConn)(nil)
	_ driver.NamedValueChecker = (*fakeConn)(nil)
	_ driver.SessionResetter   = (*fakeConn)(nil)
)

func (c *fakeConn) Prepare(q string) (driver.Stmt, error) {
	return nil, fmt.Errorf("fake: the store does not prepare statements (%q)", q)
}
func (c *fakeConn) Close() error { return nil }
func (c *fakeConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *fakeConn) BeginTx(_ context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.inTx {
		return nil, errors.New("fake: nested transaction")
	}
	marker := "BEGIN"
	if opts.Isolation != driver.IsolationLevel(sql.LevelDefault) {
		marker += " ISOLATION " + sql.IsolationLevel(opts.Isolation).String()
	}
	if opts.ReadOnly {
		marker += " READ ONLY"
	}
	c.marker(marker)
	c.inTx = true
	return fakeTx{c}, nil
}

func (c *fakeConn) marker(m string) {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.srv.log = append(c.srv.log, fakeStmt{SQL: m})
}

// CheckNamedValue takes every value as it is, as go-mssqldb and go-ora do for the types the
// store binds, so the recorded types are what the real driver would bind.
func (c *fakeConn) CheckNamedValue(*driver.NamedValue) error { return nil }

func (c *fakeConn) ResetSession(context.Context) error {
	if c.inTx {
		return errors.New("fake: connection returned to the pool inside a transaction")
	}
	return nil
}

func (c *fakeConn) ExecContext(_ context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.srv.exec(q, args)
}

func (c *fakeConn) QueryContext(_ context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	return c.srv.query(q, args)
}

type fakeTx struct{ c *fakeConn }

func (t fakeTx) Commit() error {
	t.c.marker("COMMIT")
	t.c.inTx = false
	return nil
}

func (t fakeTx) Rollback() error {
	t.c.marker("ROLLBACK")
	t.c.inTx = false
	return nil
}

type fakeRows struct {
	columns []string
	rows    [][]driver.Value
	i       int
}

func (r *fakeRows) Columns() []string { return r.columns }
func (r *fakeRows) Close() error      { return nil }

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i >= len(r.rows) {
		return io.EOF
	}
	copy(dest, r.rows[r.i])
	r.i++
	return nil
}
