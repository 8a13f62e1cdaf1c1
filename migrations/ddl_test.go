package migrations

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The DDL parser reads the SQL Server and Oracle statements (as goose sends them; see
// recorder_test.go) back into the logical schema. It is deliberately small and strict: it
// understands exactly the forms those migrations use —
//
//	CREATE TABLE t (column TYPE [COLLATE c] [NOT NULL], ...,
//	    CONSTRAINT pk PRIMARY KEY (cols), CONSTRAINT fk FOREIGN KEY (cols) REFERENCES t (cols) ON DELETE CASCADE)
//	CREATE [UNIQUE] INDEX name ON t (cols)
//	DROP TABLE t [PURGE]
//	ALTER TABLE t ADD column TYPE [COLLATE c] (nullable, no default)
//	ALTER TABLE t ADD column TYPE NOT NULL CONSTRAINT df DEFAULT n (SQL Server)
//	ALTER TABLE t ADD column TYPE DEFAULT n NOT NULL (Oracle)
//	ALTER TABLE t DROP CONSTRAINT pk [DROP INDEX], then ALTER TABLE t ADD CONSTRAINT pk PRIMARY KEY (cols)
//
// — and reports anything else (a DEFAULT, a CHECK, an unknown type, a quoted identifier) as an
// error instead of skipping it.

// ddlSchema is what parseDDL found: the tables and every constraint name.
type ddlSchema struct {
	Tables      []Table
	Constraints []string // primary and foreign key constraint names
}

// physicalType maps one dialect's column type text back to a logical type and length.
type physicalType func(text string) (typ Type, length int, err error)

var (
	reSQLServerNVarchar = regexp.MustCompile(`^NVARCHAR\((\d+|MAX)\) COLLATE (\w+)$`)
	reOracleVarchar2    = regexp.MustCompile(`^VARCHAR2\((\d+) CHAR\)$`)
)

// sqlServerBinaryCollation is the collation of every SQL Server character column: binary, hence
// case-sensitive equality (participant ids, tags, tokens).
const sqlServerBinaryCollation = "Latin1_General_100_BIN2"

func sqlServerType(text string) (Type, int, error) {
	if m := reSQLServerNVarchar.FindStringSubmatch(text); m != nil {
		if m[2] != sqlServerBinaryCollation {
			return "", 0, fmt.Errorf("collation %s, want %s", m[2], sqlServerBinaryCollation)
		}
		if m[1] == "MAX" {
			return Text, 0, nil
		}
		n, _ := strconv.Atoi(m[1])
		return Varchar, n, nil
	}
	switch text {
	case "INT":
		return Integer, 0, nil
	case "BIGINT":
		return BigInt, 0, nil
	case "BIT":
		return Boolean, 0, nil
	case "DATETIME2(6)":
		return Timestamp, 0, nil
	case "VARBINARY(MAX)":
		return Binary, 0, nil
	}
	return "", 0, fmt.Errorf("unknown SQL Server type %q", text)
}

func oracleType(text string) (Type, int, error) {
	if m := reOracleVarchar2.FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return Varchar, n, nil
	}
	switch text {
	case "CLOB":
		return Text, 0, nil
	case "NUMBER(10)":
		return Integer, 0, nil
	case "NUMBER(19)":
		return BigInt, 0, nil
	case "NUMBER(1)":
		return Boolean, 0, nil
	case "TIMESTAMP(6)":
		return Timestamp, 0, nil
	case "BLOB":
		return Binary, 0, nil
	}
	return "", 0, fmt.Errorf("unknown Oracle type %q", text)
}

var (
	reLineComment  = regexp.MustCompile(`--[^\n]*`)
	reSpace        = regexp.MustCompile(`\s+`)
	reCreateTable  = regexp.MustCompile(`^CREATE TABLE (\S+) \((.*)\)$`)
	reCreateIndex  = regexp.MustCompile(`^CREATE (UNIQUE )?INDEX (\S+) ON (\S+) \(([^()]*)\)$`)
	reDropTable    = regexp.MustCompile(`^DROP TABLE (\S+)( PURGE)?$`)
	reDropIndex    = regexp.MustCompile(`^DROP INDEX (\S+)( ON (\S+))?$`)
	reInsertSelect = regexp.MustCompile(`^INSERT INTO (\S+) \(([^()]*)\) SELECT .* FROM (\S+)$`)
	reDropColumn   = regexp.MustCompile(`^ALTER TABLE (\S+) DROP COLUMN (\S+)$`)
	reAddColumn    = regexp.MustCompile(`^ALTER TABLE (\S+) ADD (COLUMN )?(\S+) .+$`)
	// reAddNullColumn is a nullable column without a default added to a table (00011); a NOT
	// NULL or DEFAULT clause is left in the type text, which the type parser refuses.
	reAddNullColumn = regexp.MustCompile(`^ALTER TABLE (\S+) ADD (\S+) (.+)$`)
	// reAddDefaultColumn is a NOT NULL column with a constant default added to a table (00012),
	// SQL Server's form (named default constraint) or Oracle's.
	reAddDefaultColumn = map[Dialect]*regexp.Regexp{
		SQLServer: regexp.MustCompile(`^ALTER TABLE (\S+) ADD (\S+) (.+) NOT NULL CONSTRAINT (\S+) DEFAULT -?\d+$`),
		Oracle:    regexp.MustCompile(`^ALTER TABLE (\S+) ADD (\S+) (.+) DEFAULT -?\d+ NOT NULL$`),
	}
	// reDropConstraint and reAddPrimaryKey replace a table's primary key (00012); Oracle drops
	// the key's index with it.
	reDropConstraint = regexp.MustCompile(`^ALTER TABLE (\S+) DROP CONSTRAINT (\S+)( DROP INDEX)?$`)
	reAddPrimaryKey  = regexp.MustCompile(`^ALTER TABLE (\S+) ADD CONSTRAINT (\S+) PRIMARY KEY \(([^()]*)\)$`)
	reInsertInto     = regexp.MustCompile(`^INSERT INTO (\S+) \(([^()]*)\) SELECT .+$`)
	reDelete         = regexp.MustCompile(`^DELETE FROM (\S+)( WHERE .+)?$`)
	reUpdate         = regexp.MustCompile(`^UPDATE (\S+) SET .+$`)
	rePrimaryKey     = regexp.MustCompile(`^CONSTRAINT (\S+) PRIMARY KEY \(([^()]*)\)$`)
	reForeignKey     = regexp.MustCompile(`^CONSTRAINT (\S+) FOREIGN KEY \(([^()]*)\) REFERENCES (\S+) \(([^()]*)\)( ON DELETE CASCADE)?$`)
	reColumn         = regexp.MustCompile(`^(\S+) (.+?)( NOT NULL)?$`)
	reIdentifier     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	oracleMaxIdent   = 30
)

// normalizeStatement strips comments, folds whitespace and, for SQL Server, the statement's
// trailing semicolon. Oracle statements must not have one (the driver would send it).
func normalizeStatement(d Dialect, stmt string) (string, error) {
	s := reLineComment.ReplaceAllString(stmt, "")
	if strings.ContainsAny(s, `'"`) {
		return "", fmt.Errorf("quotes are not supported by this parser: %q", stmt)
	}
	s = strings.TrimSpace(reSpace.ReplaceAllString(s, " "))
	s = strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
	if strings.HasSuffix(s, ";") {
		if d == Oracle {
			return "", fmt.Errorf("oracle statement ends with a semicolon: %q", s)
		}
		s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	}
	if strings.Contains(s, ";") {
		return "", fmt.Errorf("more than one statement: %q", s)
	}
	return s, nil
}

// ident checks one identifier and returns it lower-cased (Oracle stores unquoted identifiers
// upper-case; the schema description is lower-case).
func ident(d Dialect, name string) (string, error) {
	if !reIdentifier.MatchString(name) {
		return "", fmt.Errorf("not a plain identifier: %q", name)
	}
	if d == Oracle && len(name) > oracleMaxIdent {
		return "", fmt.Errorf("identifier %s is longer than %d characters", name, oracleMaxIdent)
	}
	return strings.ToLower(name), nil
}

func identList(d Dialect, list string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(list, ",") {
		name, err := ident(d, strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

// splitTopLevel splits s at commas outside parentheses.
func splitTopLevel(s string) ([]string, error) {
	var (
		parts []string
		depth int
		start int
	)
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced parentheses in %q", s)
			}
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced parentheses in %q", s)
	}
	return append(parts, strings.TrimSpace(s[start:])), nil
}

func physicalTypeOf(d Dialect) (physicalType, error) {
	switch d {
	case SQLServer:
		return sqlServerType, nil
	case Oracle:
		return oracleType, nil
	}
	return nil, fmt.Errorf("no DDL parser for dialect %s", d)
}

// parseDDL reads the Up statements of a dialect into its schema.
func parseDDL(d Dialect, statements []string) (ddlSchema, error) {
	typeOf, err := physicalTypeOf(d)
	if err != nil {
		return ddlSchema{}, err
	}
	var out ddlSchema
	pkName := map[string]string{} // table → its primary key constraint
	find := func(name string) *Table {
		for i := range out.Tables {
			if out.Tables[i].Name == name {
				return &out.Tables[i]
			}
		}
		return nil
	}
	for _, raw := range statements {
		s, err := normalizeStatement(d, raw)
		if err != nil {
			return ddlSchema{}, err
		}
		if m := reCreateTable.FindStringSubmatch(s); m != nil {
			t, constraints, err := parseCreateTable(d, typeOf, m[1], m[2])
			if err != nil {
				return ddlSchema{}, fmt.Errorf("%s: %w", m[1], err)
			}
			if find(t.Name) != nil {
				return ddlSchema{}, fmt.Errorf("table %s created twice", t.Name)
			}
			out.Tables = append(out.Tables, t)
			out.Constraints = append(out.Constraints, constraints...)
			if t.PrimaryKey != nil {
				pkName[t.Name] = constraints[0]
			}
			continue
		}
		if m := reCreateIndex.FindStringSubmatch(s); m != nil {
			name, err := ident(d, m[2])
			if err != nil {
				return ddlSchema{}, err
			}
			table, err := ident(d, m[3])
			if err != nil {
				return ddlSchema{}, err
			}
			columns, err := identList(d, m[4])
			if err != nil {
				return ddlSchema{}, fmt.Errorf("index %s: %w", name, err)
			}
			t := find(table)
			if t == nil {
				return ddlSchema{}, fmt.Errorf("index %s on unknown table %s", name, table)
			}
			for _, c := range columns {
				if _, ok := t.Column(c); !ok {
					return ddlSchema{}, fmt.Errorf("index %s on unknown column %s.%s", name, table, c)
				}
			}
			t.Indexes = append(t.Indexes, Index{Name: name, Unique: m[1] != "", Columns: columns})
			continue
		}
		if m := reDropIndex.FindStringSubmatch(s); m != nil {
			// An index a later migration replaces (00014): it must exist, on the table named.
			if err := dropIndex(d, out.Tables, m[1], m[3]); err != nil {
				return ddlSchema{}, err
			}
			continue
		}
		if m := reInsertSelect.FindStringSubmatch(s); m != nil {
			// A data move between tables (00008): both must exist, and the target columns.
			if err := checkDataMove(d, find, m[1], m[2], m[3]); err != nil {
				return ddlSchema{}, err
			}
			continue
		}
		if m := reDropColumn.FindStringSubmatch(s); m != nil {
			if err := dropColumn(d, find, m[1], m[2]); err != nil {
				return ddlSchema{}, err
			}
			continue
		}
		if m := reAddDefaultColumn[d].FindStringSubmatch(s); m != nil {
			if err := addColumn(d, typeOf, find, m[1], m[2], m[3]); err != nil {
				return ddlSchema{}, err
			}
			t := find(strings.ToLower(m[1]))
			t.Columns[len(t.Columns)-1].Nullable = false
			if d == SQLServer {
				out.Constraints = append(out.Constraints, strings.ToLower(m[4]))
			}
			continue
		}
		if m := reDropConstraint.FindStringSubmatch(s); m != nil {
			if err := dropPrimaryKey(d, find, pkName, m[1], m[2], m[3] != ""); err != nil {
				return ddlSchema{}, err
			}
			out.Constraints = slices.DeleteFunc(out.Constraints, func(c string) bool { return c == strings.ToLower(m[2]) })
			continue
		}
		if m := reAddPrimaryKey.FindStringSubmatch(s); m != nil {
			if err := addPrimaryKey(d, find, pkName, m[1], m[2], m[3]); err != nil {
				return ddlSchema{}, err
			}
			out.Constraints = append(out.Constraints, strings.ToLower(m[2]))
			continue
		}
		if m := reAddNullColumn.FindStringSubmatch(s); m != nil {
			if err := addColumn(d, typeOf, find, m[1], m[2], m[3]); err != nil {
				return ddlSchema{}, err
			}
			continue
		}
		return ddlSchema{}, fmt.Errorf("statement not understood: %q", s)
	}
	return out, nil
}

// checkDataMove checks an INSERT … SELECT between two tables created before it.
func checkDataMove(d Dialect, find func(string) *Table, rawTarget, rawColumns, rawSource string) error {
	target, err := ident(d, rawTarget)
	if err != nil {
		return err
	}
	source, err := ident(d, rawSource)
	if err != nil {
		return err
	}
	t := find(target)
	if t == nil || find(source) == nil {
		return fmt.Errorf("data moved between unknown tables %s and %s", source, target)
	}
	columns, err := identList(d, rawColumns)
	if err != nil {
		return err
	}
	for _, c := range columns {
		if _, ok := t.Column(c); !ok {
			return fmt.Errorf("data moved into unknown column %s.%s", target, c)
		}
	}
	return nil
}

// alteredColumn reads the table and column of an ALTER TABLE; the table must exist.
func alteredColumn(d Dialect, find func(string) *Table, rawTable, rawColumn, verb string) (*Table, string, string, error) {
	table, err := ident(d, rawTable)
	if err != nil {
		return nil, "", "", err
	}
	column, err := ident(d, rawColumn)
	if err != nil {
		return nil, "", "", err
	}
	t := find(table)
	if t == nil {
		return nil, "", "", fmt.Errorf("column %s unknown table %s", verb, table)
	}
	return t, table, column, nil
}

// dropColumn removes a column that no key or index uses from a table created before.
func dropColumn(d Dialect, find func(string) *Table, rawTable, rawColumn string) error {
	t, table, column, err := alteredColumn(d, find, rawTable, rawColumn, "dropped from")
	if err != nil {
		return err
	}
	used := slices.Contains(t.PrimaryKey, column)
	for _, ix := range t.Indexes {
		used = used || slices.Contains(ix.Columns, column)
	}
	if used {
		return fmt.Errorf("column %s.%s dropped while a key or index uses it", table, column)
	}
	i := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == column })
	if i < 0 {
		return fmt.Errorf("unknown column %s.%s dropped", table, column)
	}
	t.Columns = slices.Delete(t.Columns, i, i+1)
	return nil
}

// dropIndex removes a created index, as DROP INDEX does. SQL Server names its table, Oracle
// does not (an index name is unique in the schema).
func dropIndex(d Dialect, tables []Table, rawName, rawTable string) error {
	if (d == SQLServer) != (rawTable != "") {
		return fmt.Errorf("%s: DROP INDEX %s names its table the wrong way", d, rawName)
	}
	name, err := ident(d, rawName)
	if err != nil {
		return err
	}
	for i := range tables {
		t := &tables[i]
		if rawTable != "" {
			if table, err := ident(d, rawTable); err != nil || table != t.Name {
				continue
			}
		}
		if j := slices.IndexFunc(t.Indexes, func(ix Index) bool { return ix.Name == name }); j >= 0 {
			t.Indexes = slices.Delete(t.Indexes, j, j+1)
			return nil
		}
	}
	return fmt.Errorf("unknown index %s dropped", name)
}

// addColumn appends a nullable column to a table created before, as ALTER TABLE … ADD does.
func addColumn(d Dialect, typeOf physicalType, find func(string) *Table, rawTable, rawColumn, typeText string) error {
	t, table, column, err := alteredColumn(d, find, rawTable, rawColumn, "added to")
	if err != nil {
		return err
	}
	if _, dup := t.Column(column); dup {
		return fmt.Errorf("column %s.%s added twice", table, column)
	}
	typ, length, err := typeOf(typeText)
	if err != nil {
		return fmt.Errorf("column %s.%s: %w", table, column, err)
	}
	t.Columns = append(t.Columns, Column{Name: column, Type: typ, Length: length, Nullable: true})
	return nil
}

// dropPrimaryKey removes a table's primary key by its constraint name, the only constraint this
// parser drops; on Oracle the key's index must go with it (DROP INDEX), so the key that replaces
// it can take the name.
func dropPrimaryKey(d Dialect, find func(string) *Table, pkName map[string]string, rawTable, rawName string, dropIndex bool) error {
	table, err := ident(d, rawTable)
	if err != nil {
		return err
	}
	name, err := ident(d, rawName)
	if err != nil {
		return err
	}
	t := find(table)
	if t == nil || t.PrimaryKey == nil || pkName[table] != name {
		return fmt.Errorf("constraint %s dropped: not the primary key of a known table %s", name, table)
	}
	if dropIndex != (d == Oracle) {
		return fmt.Errorf("%s: DROP INDEX with a dropped key is Oracle's, and Oracle needs it", d)
	}
	t.PrimaryKey = nil
	delete(pkName, table)
	return nil
}

// addPrimaryKey gives a table without one a primary key over existing NOT NULL columns.
func addPrimaryKey(d Dialect, find func(string) *Table, pkName map[string]string, rawTable, rawName, rawColumns string) error {
	table, err := ident(d, rawTable)
	if err != nil {
		return err
	}
	name, err := ident(d, rawName)
	if err != nil {
		return err
	}
	columns, err := identList(d, rawColumns)
	if err != nil {
		return err
	}
	t := find(table)
	if t == nil || t.PrimaryKey != nil {
		return fmt.Errorf("primary key %s added to %s, which is unknown or has one", name, table)
	}
	for _, c := range columns {
		col, ok := t.Column(c)
		if !ok || col.Nullable {
			return fmt.Errorf("primary key %s on unknown or nullable column %s.%s", name, table, c)
		}
	}
	t.PrimaryKey, pkName[table] = columns, name
	return nil
}

func parseCreateTable(d Dialect, typeOf physicalType, rawName, body string) (Table, []string, error) {
	name, err := ident(d, rawName)
	if err != nil {
		return Table{}, nil, err
	}
	t := Table{Name: name}
	var constraints []string
	items, err := splitTopLevel(body)
	if err != nil {
		return Table{}, nil, err
	}
	for _, item := range items {
		if m := rePrimaryKey.FindStringSubmatch(item); m != nil {
			if t.PrimaryKey != nil {
				return Table{}, nil, fmt.Errorf("two primary keys")
			}
			cname, err := ident(d, m[1])
			if err != nil {
				return Table{}, nil, err
			}
			if t.PrimaryKey, err = identList(d, m[2]); err != nil {
				return Table{}, nil, err
			}
			constraints = append(constraints, cname)
			continue
		}
		if m := reForeignKey.FindStringSubmatch(item); m != nil {
			cname, err := ident(d, m[1])
			if err != nil {
				return Table{}, nil, err
			}
			fk := ForeignKey{OnDeleteCascade: m[5] != ""}
			if fk.Columns, err = identList(d, m[2]); err != nil {
				return Table{}, nil, err
			}
			if fk.RefTable, err = ident(d, m[3]); err != nil {
				return Table{}, nil, err
			}
			if fk.RefColumns, err = identList(d, m[4]); err != nil {
				return Table{}, nil, err
			}
			t.ForeignKeys = append(t.ForeignKeys, fk)
			constraints = append(constraints, cname)
			continue
		}
		if strings.HasPrefix(item, "CONSTRAINT ") {
			return Table{}, nil, fmt.Errorf("constraint not understood: %q", item)
		}
		m := reColumn.FindStringSubmatch(item)
		if m == nil {
			return Table{}, nil, fmt.Errorf("column not understood: %q", item)
		}
		cname, err := ident(d, m[1])
		if err != nil {
			return Table{}, nil, err
		}
		typ, length, err := typeOf(m[2])
		if err != nil {
			return Table{}, nil, fmt.Errorf("column %s: %w", cname, err)
		}
		if _, dup := t.Column(cname); dup {
			return Table{}, nil, fmt.Errorf("column %s declared twice", cname)
		}
		t.Columns = append(t.Columns, Column{Name: cname, Type: typ, Length: length, Nullable: m[3] == ""})
	}
	for _, c := range t.PrimaryKey {
		if _, ok := t.Column(c); !ok {
			return Table{}, nil, fmt.Errorf("primary key on unknown column %s", c)
		}
	}
	for _, fk := range t.ForeignKeys {
		for _, c := range fk.Columns {
			if _, ok := t.Column(c); !ok {
				return Table{}, nil, fmt.Errorf("foreign key on unknown column %s", c)
			}
		}
	}
	return t, constraints, nil
}

// parseDown reads the Down statements: DROP TABLE (Oracle: with PURGE, so nothing stays in
// the recycle bin), DROP INDEX of an index a later migration added and CREATE INDEX of one it
// replaced. It returns the dropped
// tables in order.
func parseDown(d Dialect, statements []string) ([]string, error) {
	var dropped []string
	for _, raw := range statements {
		s, err := normalizeStatement(d, raw)
		if err != nil {
			return nil, err
		}
		if ix := reDropIndex.FindStringSubmatch(s); ix != nil {
			// A later migration's index on an earlier table: its Down drops the index, the
			// table goes with the earlier Down. SQL Server names the table, Oracle may not.
			if (d == SQLServer) != (ix[2] != "") {
				return nil, fmt.Errorf("%s: %q names its table the wrong way", d, s)
			}
			continue
		}
		if reCreateIndex.MatchString(s) {
			continue // a later migration's Down restoring the index it replaced (00014)
		}
		if reAddColumn.MatchString(s) || reUpdate.MatchString(s) {
			continue // a later migration's Down restoring a column it moved (00008)
		}
		if reDropColumn.MatchString(s) {
			continue // a later migration's Down dropping the column it added (00011)
		}
		if reInsertInto.MatchString(s) || reDelete.MatchString(s) || reDropConstraint.MatchString(s) {
			continue // a later migration's Down merging stripes and restoring a primary key (00012)
		}
		m := reDropTable.FindStringSubmatch(s)
		if m == nil {
			return nil, fmt.Errorf("down statement not understood: %q", s)
		}
		if d == Oracle && m[2] == "" {
			return nil, fmt.Errorf("oracle %q lacks PURGE: the table would stay in the recycle bin", s)
		}
		if d != Oracle && m[2] != "" {
			return nil, fmt.Errorf("PURGE is Oracle syntax: %q", s)
		}
		name, err := ident(d, m[1])
		if err != nil {
			return nil, err
		}
		dropped = append(dropped, name)
	}
	return dropped, nil
}
