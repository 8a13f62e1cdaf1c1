package handlers_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/migrations"
)

// probe asks the env's health endpoint at path (outside the OpenAPI document, and not a
// problem+json answer) and answers the status and body.
func probe(t *testing.T, env *handlerstest.Env, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(env.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func readyz(t *testing.T, env *handlerstest.Env) (int, string) {
	t.Helper()
	return probe(t, env, "/readyz")
}

func TestReadyz(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		env := handlerstest.SQLite(t, nil)
		if code, body := readyz(t, env); code != http.StatusOK || !strings.Contains(body, `"ready"`) {
			t.Fatalf("/readyz = %d %s", code, body)
		}
		if code, body := probe(t, env, "/healthz"); code != http.StatusOK {
			t.Fatalf("/healthz = %d %s", code, body)
		}
	})
	t.Run("DatabaseUnreachable", func(t *testing.T) {
		env := handlerstest.SQLite(t, nil)
		if err := env.Store.Close(); err != nil {
			t.Fatal(err)
		}
		if code, body := readyz(t, env); code != http.StatusServiceUnavailable || !strings.Contains(body, "database unreachable") {
			t.Fatalf("/readyz = %d %s, want 503 database unreachable", code, body)
		}
		if code, _ := probe(t, env, "/healthz"); code != http.StatusOK {
			t.Fatalf("/healthz = %d: the process is up whatever the database", code)
		}
	})
	t.Run("SchemaBehind", func(t *testing.T) {
		env := handlerstest.SQLite(t, nil)
		db, err := env.Store.DB()
		if err != nil {
			t.Fatal(err)
		}
		p, err := migrations.NewProvider(env.Store.Dialect(), db)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Down(context.Background()); err != nil {
			t.Fatal(err)
		}
		if code, body := readyz(t, env); code != http.StatusServiceUnavailable || !strings.Contains(body, "schema") {
			t.Fatalf("/readyz = %d %s, want 503 schema", code, body)
		}
		if _, err := p.Up(context.Background()); err != nil {
			t.Fatal(err)
		}
		if code, body := readyz(t, env); code != http.StatusOK {
			t.Fatalf("/readyz after migrating up = %d %s", code, body)
		}
	})
}
