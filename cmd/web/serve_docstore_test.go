package main

import (
	"strings"
	"testing"

	"usertasks/docstore/docstoretest"
	"usertasks/testfactory"
)

// TestServeOnDocumentStore: `web serve --migrate` on a mongodb:// URL migrates the document
// store (an empty database of the test server), says so on its start line, answers readiness,
// and guards the API as on SQL. The workload itself runs in TestCrashRecovery/DocumentStore.
func TestServeOnDocumentStore(t *testing.T) {
	vars := productionVarsWith(t, map[string]string{"USERTASKS_DATABASE_URL": docstoretest.DatabaseURL(t)})
	base, _, stop := startServeStoppable(t, vars, "--migrate")
	if code, body := get(t, base+"/readyz"); code != 200 || !strings.Contains(body, "ready") {
		t.Fatalf("/readyz = %d %s", code, body)
	}
	if code, _ := get(t, base+"/api/v1/user-tasks"); code != 401 {
		t.Fatalf("API without a token = %d, want 401", code)
	}
	stop()
	// Served once, the schema is there: a second serve needs no --migrate.
	base = startServe(t, vars)
	if code, _ := get(t, base+"/readyz"); code != 200 {
		t.Fatalf("/readyz after a restart = %d", code)
	}
}

// TestStressOverHTTPOnDocumentStore runs every stress mode small against a server on the
// document store; the invariants are checked over the API (the stress client has no database).
func TestStressOverHTTPOnDocumentStore(t *testing.T) {
	vars := productionVarsWith(t, map[string]string{"USERTASKS_DATABASE_URL": docstoretest.DatabaseURL(t)})
	base := startServe(t, vars, "--migrate")
	client := productionVars("")
	delete(client, "USERTASKS_DATABASE_URL")
	stressAllOverHTTP(t, client, base)
}

// TestStressStoreOnDocumentStore: `web stress` without --url loads a mongodb:// store in
// process; the invariants and the audit hold, and the report says the raw baseline is SQL's.
func TestStressStoreOnDocumentStore(t *testing.T) {
	vars := productionVarsWith(t, map[string]string{"USERTASKS_DATABASE_URL": testfactory.Database(t, testfactory.Mongo)})
	code, out, errOut := runCLI(t, vars, "stress", "cas", "--tasks", "4", "--writers", "2")
	if code != exitOK {
		t.Fatalf("stress exited %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"== cas (store on mongodb)", "note: the raw baseline runs on a SQL database only", "invariants: all"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
