package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
)

// TestMigrateDocumentStore: `web migrate up|status` on a mongodb:// URL creates the collections
// and indexes of the logical schema, reports them, and a second up changes nothing.
func TestMigrateDocumentStore(t *testing.T) {
	url := docstoretest.DatabaseURL(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if conn, err := docstore.Connect(ctx, url); err == nil {
			_ = conn.DB.Drop(ctx)
			_ = conn.Close(ctx)
		}
	})
	vars := map[string]string{"USERTASKS_DATABASE_URL": url}
	t.Run("StatusBeforeUp", func(t *testing.T) {
		code, out, errOut := runCLI(t, vars, "migrate", "status")
		if code != exitOK || !strings.Contains(out, "schema version 0 of") || !strings.Contains(out, "user_tasks                   missing") {
			t.Fatalf("migrate status: %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("Up", func(t *testing.T) {
		code, out, errOut := runCLI(t, vars, "migrate", "up")
		if code != exitOK || !strings.Contains(out, "created collection user_tasks") || !strings.Contains(out, "created index user_tasks.ux_tasks_bookmark") {
			t.Fatalf("migrate up: %d\n%s%s", code, out, errOut)
		}
		if _, out, _ := runCLI(t, vars, "migrate", "up"); out != "schema is up to date\n" {
			t.Fatalf("second migrate up: %q", out)
		}
	})
	t.Run("StatusAfterUp", func(t *testing.T) {
		code, out, errOut := runCLI(t, vars, "migrate", "status")
		if code != exitOK || !strings.Contains(out, ": up to date") || strings.Contains(out, "missing") {
			t.Fatalf("migrate status: %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("ErrDownIsUsage", func(t *testing.T) {
		code, _, errOut := runCLI(t, vars, "migrate", "down")
		if code != exitUsage || !strings.Contains(errOut, "no down migration") {
			t.Fatalf("migrate down: %d %s", code, errOut)
		}
	})
}

// TestDocumentStoreRefusals: serve refuses a document-store URL before anything else, and a
// malformed one is refused by the configuration without repeating its password.
func TestDocumentStoreRefusals(t *testing.T) {
	t.Run("ServeMigrateOnly", func(t *testing.T) {
		vars := map[string]string{"USERTASKS_DATABASE_URL": "mongodb://user:secret@127.0.0.1:1/tasks"}
		code, _, errOut := runCLI(t, vars, "serve")
		if code != exitFailure || !strings.Contains(errOut, "the document store serves migrate only in this version") {
			t.Fatalf("serve on mongodb: %d %s", code, errOut)
		}
		if strings.Contains(errOut, "secret") {
			t.Fatalf("serve repeats the password: %s", errOut)
		}
	})
	t.Run("ErrMalformedURL", func(t *testing.T) {
		vars := map[string]string{"USERTASKS_DATABASE_URL": "mongodb+srv://user:secret@host:27017/a.b"}
		code, _, errOut := runCLI(t, vars, "migrate", "status")
		if code != exitFailure || !strings.Contains(errOut, "USERTASKS_DATABASE_URL") || strings.Contains(errOut, "secret") {
			t.Fatalf("migrate on a malformed URL: %d %s", code, errOut)
		}
	})
}
