package stress_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
	"usertasks/stress"
	"usertasks/testfactory"
)

// TestMain stops the embedded FerretDB the document-store test started, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	docstoretest.Stop()
	os.Exit(code)
}

// TestStoreModesOnDocumentStore runs every mode small against the document store in process:
// the invariants and the store's audit hold, and the report says the raw baseline, SQL's, was
// skipped.
func TestStoreModesOnDocumentStore(t *testing.T) {
	s := openDocumentStore(t)
	reports := runEveryMode(t, stress.Options{
		Tasks: 6, Writers: 3, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, Database: "mongodb",
	})
	for _, r := range reports {
		if r.Dialect != "mongodb" {
			t.Errorf("%s: on %q, want mongodb", r.Mode, r.Dialect)
		}
		audited := false
		for _, c := range r.Checks {
			audited = audited || (c.Name == r.Mode+": audit findings" && c.OK)
		}
		if !audited {
			t.Errorf("%s: no passing audit check in %+v", r.Mode, r.Checks)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "SQL database only") || r.Figures[0].Baseline != nil {
			t.Errorf("%s: notes %q, baseline %v: want the raw baseline skipped as SQL's", r.Mode, r.Notes, r.Figures[0].Baseline)
		}
	}
}

// openDocumentStore opens the document store on a fresh, migrated database of docstoretest's
// server; the store is closed and the database dropped when the test ends.
func openDocumentStore(t *testing.T) *docstore.Store {
	t.Helper()
	url := docstoretest.DatabaseURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := docstore.Migrate(ctx, url); err != nil {
		t.Fatalf("migrate the document store: %v", err)
	}
	s, err := docstore.Open(ctx, docstore.Config{URL: url, Keys: testfactory.Keys()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = s.Close()
		if conn, err := docstore.Connect(ctx, url); err == nil {
			_ = conn.DB.Drop(ctx)
			_ = conn.Close(ctx)
		}
	})
	return s
}
