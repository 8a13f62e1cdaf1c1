package main

import (
	"strings"
	"testing"

	"usertasks/docstore/docstoretest"
)

// TestMigrateDocumentStore: `web migrate up|status` on a mongodb:// URL creates the collections
// and indexes of the logical schema, reports them, and a second up changes nothing.
func TestMigrateDocumentStore(t *testing.T) {
	url := docstoretest.DatabaseURL(t)
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

// TestDocumentStoreRefusals: serve on a document store that does not answer fails without
// repeating the URL's password, and a malformed URL is refused by the configuration alike.
func TestDocumentStoreRefusals(t *testing.T) {
	t.Run("ErrUnreachable", func(t *testing.T) {
		vars := productionVarsWith(t, map[string]string{
			"USERTASKS_DATABASE_URL": "mongodb://user:secret@127.0.0.1:1/tasks?serverSelectionTimeoutMS=300",
		})
		code, _, errOut := runCLI(t, vars, "serve", "--listen", "127.0.0.1:0")
		if code != exitFailure || !strings.Contains(errOut, "the server does not answer") {
			t.Fatalf("serve on an unreachable mongodb: %d %s", code, errOut)
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
