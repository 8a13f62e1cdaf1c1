package migrations

import (
	"fmt"
	"strings"
	"testing"
)

// keyLimits is one dialect's index key budget: bytes per column (worst case for the character
// set) and the limits for secondary indexes and primary keys.
type keyLimits struct {
	dialect      Dialect
	index        int // bytes per secondary index key
	primary      int // bytes per primary key
	primaryNote  string
	columnBytes  func(Column) (int, error)
	characterSet string
}

var (
	// MySQL InnoDB (DYNAMIC rows): 3,072 bytes per key; utf8mb4 needs up to 4 bytes a character.
	mysqlKeyLimits = keyLimits{
		dialect: MySQL, index: 3072, primary: 3072,
		characterSet: "utf8mb4, 4 bytes per character",
		columnBytes: func(c Column) (int, error) {
			return fixedKeyBytes(c, 4, map[Type]int{Integer: 4, BigInt: 8, Timestamp: 8, Boolean: 1})
		},
	}
	// SQL Server: 1,700 bytes per nonclustered index key, 900 for the clustered index that a
	// PRIMARY KEY becomes; NVARCHAR needs 2 bytes a character.
	sqlServerKeyLimits = keyLimits{
		dialect: SQLServer, index: 1700, primary: 900, primaryNote: " (clustered)",
		characterSet: "NVARCHAR, 2 bytes per character",
		columnBytes: func(c Column) (int, error) {
			return fixedKeyBytes(c, 2, map[Type]int{Integer: 4, BigInt: 8, Timestamp: 8, Boolean: 1})
		},
	}
)

func fixedKeyBytes(c Column, bytesPerChar int, fixed map[Type]int) (int, error) {
	if c.Type == Varchar {
		return c.Length * bytesPerChar, nil
	}
	if n, ok := fixed[c.Type]; ok {
		return n, nil
	}
	return 0, fmt.Errorf("column %s of type %s cannot be part of an index key", c.Name, c.Type)
}

// keySize is the widest key of one index: the sum of its columns' worst-case widths.
func keySize(t Table, columns []string, bytes func(Column) (int, error)) (int, error) {
	total := 0
	for _, name := range columns {
		c, ok := t.Column(name)
		if !ok {
			return 0, fmt.Errorf("unknown column %s.%s", t.Name, name)
		}
		n, err := bytes(c)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// keyOverflows lists every index and primary key of tables that may exceed the limits, naming it;
// largest is the widest key found.
func keyOverflows(tables []Table, l keyLimits) (problems []string, largest string) {
	widest := -1
	for _, t := range tables {
		check := func(name string, columns []string, limit int, note string) {
			n, err := keySize(t, columns, l.columnBytes)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: index %s on %s: %v", l.dialect, name, t.Name, err))
				return
			}
			if n > limit {
				problems = append(problems, fmt.Sprintf("%s: index %s on %s (%s) needs %d bytes, over the %d-byte limit%s (%s)",
					l.dialect, name, t.Name, strings.Join(columns, ", "), n, limit, note, l.characterSet))
			}
			if n > widest {
				widest = n
				largest = fmt.Sprintf("%s on %s: %d of %d bytes", name, t.Name, n, limit)
			}
		}
		check("PRIMARY KEY", t.PrimaryKey, l.primary, l.primaryNote)
		for _, ix := range t.Indexes {
			check(ix.Name, ix.Columns, l.index, "")
		}
	}
	return problems, largest
}

// TestIndexKeysFit proves every index key of the schema fits MySQL's 3,072 bytes and SQL Server's
// 1,700 bytes (900 for the clustered primary keys), computed from schema.go.
func TestIndexKeysFit(t *testing.T) {
	for _, l := range []keyLimits{mysqlKeyLimits, sqlServerKeyLimits} {
		t.Run(string(l.dialect), func(t *testing.T) {
			problems, largest := keyOverflows(Schema(), l)
			for _, p := range problems {
				t.Error(p)
			}
			t.Logf("widest key: %s", largest)
		})
	}

	t.Run("ErrOversizedKeyNamed", func(t *testing.T) {
		wide := []Table{{
			Name:       "wide",
			Columns:    []Column{column("id", Varchar, 36), column("tenant_id", Varchar, 64), column("note", Varchar, 800), column("body", Text, 0)},
			PrimaryKey: []string{"id"},
			Indexes:    []Index{index("ix_wide_note", "tenant_id", "note"), index("ix_wide_body", "body")},
		}}
		for _, l := range []keyLimits{mysqlKeyLimits, sqlServerKeyLimits} {
			problems, _ := keyOverflows(wide, l)
			if len(problems) != 2 || !strings.Contains(problems[0], "ix_wide_note") || !strings.Contains(problems[1], "ix_wide_body") {
				t.Errorf("%s: problems %q, want ix_wide_note too wide and ix_wide_body not indexable", l.dialect, problems)
			}
		}
	})
}
