package migrations

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"usertasks/migrations/migrationstest"
)

// TestSearchIndexObjects: migration 00013's dialect-specific search index exists where it is
// built — SQLite's FTS5 trigram table, its row map and the three triggers; PostgreSQL's GIN
// index with pg_trgm's operator class on search_text — which the logical schema leaves out.
func TestSearchIndexObjects(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		tg := openTarget(t, SQLite)
		if err := Up(ctx, SQLite, tg.db); err != nil {
			t.Fatal(err)
		}
		got, err := queryStrings(ctx, tg.db, `SELECT type || ' ' || name FROM sqlite_master
			WHERE (type = 'trigger' AND tbl_name = 'user_tasks') OR name IN (?, ?) ORDER BY 1`, SQLiteSearchTable, SQLiteSearchRows)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"table user_task_search", "table user_task_search_rows", "trigger tr_tasks_search_delete",
			"trigger tr_tasks_search_insert", "trigger tr_tasks_search_update"}
		if !slices.Equal(got, want) {
			t.Fatalf("search objects %v, want %v", got, want)
		}
		var create string
		if err := tg.db.QueryRow(`SELECT sql FROM sqlite_master WHERE name = ?`, SQLiteSearchTable).Scan(&create); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(create, "fts5") || !strings.Contains(create, "tokenize='trigram'") {
			t.Fatalf("%s is %s, want an FTS5 table with the trigram tokenizer", SQLiteSearchTable, create)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		tg := openTarget(t, Postgres)
		if err := Up(ctx, Postgres, tg.db); err != nil {
			t.Fatal(err)
		}
		var am, opclass, column string
		if err := tg.db.QueryRow(`SELECT am.amname, oc.opcname, a.attname FROM pg_index ix
			JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_am am ON am.oid = i.relam
			JOIN pg_opclass oc ON oc.oid = ix.indclass[0]
			JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = ix.indkey[0]
			WHERE i.relname = $1`, PostgresSearchIndex).Scan(&am, &opclass, &column); err != nil {
			t.Fatal(err)
		}
		if am != "gin" || opclass != "gin_trgm_ops" || column != "search_text" {
			t.Fatalf("%s is %s (%s) on %s, want gin (gin_trgm_ops) on search_text", PostgresSearchIndex, am, opclass, column)
		}
	})
}

// TestSearchExtensionRefused: a PostgreSQL role that may not create pg_trgm gets
// ErrSearchExtension, which names the fix; once a superuser has created the extension, as
// docs/deployment.md says, the same role migrates.
func TestSearchExtensionRefused(t *testing.T) {
	ctx := context.Background()
	admin, dsn := migrationstest.NewPostgres(t) // a fresh database, opened by the server's superuser
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	role := "noext_" + hex.EncodeToString(suffix)
	mustExec := func(db *sql.DB, q string) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// The role may create tables in the schema, but not extensions (no CREATE on the database).
	mustExec(admin, `CREATE ROLE `+role+` LOGIN PASSWORD 'noext'`)
	t.Cleanup(func() {
		u, _ := url.Parse(dsn)
		u.Path = "/postgres"
		if db, err := sql.Open("pgx", u.String()); err == nil {
			_, _ = db.Exec(`DROP OWNED BY ` + role)
			_, _ = db.Exec(`DROP ROLE IF EXISTS ` + role)
			_ = db.Close()
		}
	})
	mustExec(admin, `GRANT CREATE, USAGE ON SCHEMA public TO `+role)
	mustExec(admin, `REVOKE CREATE ON DATABASE "`+strings.TrimPrefix(mustURL(t, dsn).Path, "/")+`" FROM PUBLIC`)
	mustExec(admin, `DROP EXTENSION IF EXISTS pg_trgm`)
	u := mustURL(t, dsn)
	u.User = url.UserPassword(role, "noext")
	db, err := sql.Open("pgx", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = Up(ctx, Postgres, db)
	if !errors.Is(err, ErrSearchExtension) {
		t.Fatalf("Up by a role that may not create pg_trgm: %v, want ErrSearchExtension", err)
	}
	if !strings.Contains(err.Error(), "CREATE EXTENSION pg_trgm") {
		t.Fatalf("the error does not name the fix: %v", err)
	}
	mustExec(admin, `CREATE EXTENSION pg_trgm`) // the documented fix, by the superuser
	if err := Up(ctx, Postgres, db); err != nil {
		t.Fatalf("Up after a superuser created pg_trgm: %v", err)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
