package migrations

import (
	"slices"
	"strings"
	"testing"
)

// TestSchemaDescription checks rules of the logical schema that every dialect depends on.
func TestSchemaDescription(t *testing.T) {
	tables := Schema()
	byName := map[string]Table{}
	for _, tb := range tables {
		byName[tb.Name] = tb
	}

	t.Run("NamesUniqueAndShort", func(t *testing.T) {
		// Oracle (before 12.2) allows 30 characters; PostgreSQL and Oracle share one namespace for
		// tables and indexes of a schema.
		seen := map[string]string{}
		name := func(kind, n string) {
			if len(n) > oracleMaxIdent {
				t.Errorf("%s %s is longer than %d characters", kind, n, oracleMaxIdent)
			}
			if other, dup := seen[n]; dup {
				t.Errorf("%s %s has the name of %s", kind, n, other)
			}
			seen[n] = kind
		}
		name("version table", VersionTable)
		for _, tb := range tables {
			name("table", tb.Name)
			cols := map[string]bool{}
			for _, c := range tb.Columns {
				if len(c.Name) > oracleMaxIdent {
					t.Errorf("column %s.%s is longer than %d characters", tb.Name, c.Name, oracleMaxIdent)
				}
				if cols[c.Name] {
					t.Errorf("column %s.%s twice", tb.Name, c.Name)
				}
				cols[c.Name] = true
			}
			for _, ix := range tb.Indexes {
				name("index", ix.Name)
			}
		}
	})

	t.Run("ColumnsWellFormed", func(t *testing.T) {
		for _, tb := range tables {
			for _, c := range tb.Columns {
				switch {
				case c.Type == Varchar && (c.Length < 1 || c.Length > 4000):
					// 4,000: SQL Server's widest NVARCHAR(n), Oracle's standard VARCHAR2.
					t.Errorf("%s.%s: VARCHAR(%d) outside 1..4000", tb.Name, c.Name, c.Length)
				case c.Type != Varchar && c.Length != 0:
					t.Errorf("%s.%s: %s has a length", tb.Name, c.Name, c.Type)
				case !slices.Contains([]Type{Varchar, Text, Integer, BigInt, Boolean, Timestamp, Binary}, c.Type):
					t.Errorf("%s.%s: unknown type %q", tb.Name, c.Name, c.Type)
				}
			}
		}
	})

	t.Run("KeysWellFormed", func(t *testing.T) {
		for _, tb := range tables {
			if len(tb.PrimaryKey) == 0 {
				t.Errorf("%s has no primary key", tb.Name)
			}
			keys := [][]string{tb.PrimaryKey}
			for _, ix := range tb.Indexes {
				keys = append(keys, ix.Columns)
			}
			for i, key := range keys {
				for _, name := range key {
					c, ok := tb.Column(name)
					if !ok {
						t.Errorf("%s: key %v names unknown column %s", tb.Name, key, name)
						continue
					}
					if c.Type == Text || c.Type == Binary {
						t.Errorf("%s: key %v includes TEXT column %s", tb.Name, key, name)
					}
					// Protected payloads stay out of every index (persistence contract).
					if strings.HasSuffix(name, "_enc") {
						t.Errorf("%s: key %v includes protected column %s", tb.Name, key, name)
					}
				}
				// Oracle refuses a second index on the same column list (ORA-01408).
				for _, other := range keys[:i] {
					if slices.Equal(key, other) {
						t.Errorf("%s: two keys on %v", tb.Name, key)
					}
				}
			}
			// SQL Server lets a unique index hold a single NULL and Oracle skips all-NULL keys, so
			// unique keys are over NOT NULL columns only, where every dialect agrees.
			for _, ix := range tb.Indexes {
				if !ix.Unique {
					continue
				}
				for _, name := range ix.Columns {
					if c, ok := tb.Column(name); ok && c.Nullable {
						t.Errorf("%s: unique index %s includes nullable column %s", tb.Name, ix.Name, name)
					}
				}
			}
		}
	})

	t.Run("ForeignKeysIndexedAndTyped", func(t *testing.T) {
		created := map[string]bool{}
		for _, tb := range tables {
			created[tb.Name] = true
			for _, fk := range tb.ForeignKeys {
				ref, ok := byName[fk.RefTable]
				if !ok || !created[fk.RefTable] || fk.RefTable == tb.Name {
					t.Errorf("%s: foreign key to %s, which is not created before it", tb.Name, fk.RefTable)
					continue
				}
				if !slices.Equal(fk.RefColumns, ref.PrimaryKey) {
					t.Errorf("%s: foreign key references %s%v, not its primary key %v", tb.Name, fk.RefTable, fk.RefColumns, ref.PrimaryKey)
				}
				if !fk.OnDeleteCascade {
					t.Errorf("%s: foreign key to %s does not cascade", tb.Name, fk.RefTable)
				}
				if len(fk.Columns) != len(fk.RefColumns) {
					t.Errorf("%s: foreign key %v references %v", tb.Name, fk.Columns, fk.RefColumns)
					continue
				}
				for i, name := range fk.Columns {
					c, _ := tb.Column(name)
					r, _ := ref.Column(fk.RefColumns[i])
					if c.Type != r.Type || c.Length != r.Length || c.Nullable {
						t.Errorf("%s.%s (%s) does not match %s.%s (%s) or is nullable", tb.Name, name, describeColumn(c), ref.Name, r.Name, describeColumn(r))
					}
				}
				// A cascading delete finds the children through an index led by the key; without one
				// it scans the child table, Oracle locks it whole and MySQL adds its own index.
				led := slices.Equal(tb.PrimaryKey[:min(len(fk.Columns), len(tb.PrimaryKey))], fk.Columns)
				for _, ix := range tb.Indexes {
					if len(ix.Columns) >= len(fk.Columns) && slices.Equal(ix.Columns[:len(fk.Columns)], fk.Columns) {
						led = true
					}
				}
				if !led {
					t.Errorf("%s: no index starts with foreign key %v", tb.Name, fk.Columns)
				}
			}
		}
	})

	t.Run("SingleCascadePath", func(t *testing.T) {
		// SQL Server refuses a table reachable through two cascade paths from the same table.
		var paths func(from, to string) int
		paths = func(from, to string) int {
			if from == to {
				return 1
			}
			n := 0
			for _, tb := range tables {
				for _, fk := range tb.ForeignKeys {
					if fk.RefTable == from && fk.OnDeleteCascade {
						n += paths(tb.Name, to)
					}
				}
			}
			return n
		}
		for _, from := range tables {
			for _, to := range tables {
				if n := paths(from.Name, to.Name); n > 1 {
					t.Errorf("%s cascades to %s along %d paths", from.Name, to.Name, n)
				}
			}
		}
	})
}

// TestSchemaFreshCopy guards against callers sharing (and mutating) one schema value.
func TestSchemaFreshCopy(t *testing.T) {
	a := Schema()
	a[0].Columns[0].Name = "changed"
	a[0].Indexes[0].Columns[0] = "changed"
	if b := Schema(); b[0].Columns[0].Name == "changed" || b[0].Indexes[0].Columns[0] == "changed" {
		t.Errorf("Schema returned shared state: %+v", b[0].Columns[0])
	}
}
