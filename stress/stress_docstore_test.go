package stress_test

import (
	"bytes"
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
	var progress bytes.Buffer
	reports, err := stress.Run(context.Background(), "all", stress.Options{
		Tasks: 6, Writers: 3, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s,
		Database: "mongodb", Progress: &progress,
	})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, progress.String())
	}
	if got, want := len(reports), len(stress.Modes); got != want {
		t.Fatalf("got %d reports, want %d", got, want)
	}
	for _, r := range reports {
		var out bytes.Buffer
		r.Print(&out)
		t.Log(out.String())
		if !r.OK || r.Dialect != "mongodb" {
			t.Errorf("%s: ok %v on %q, want ok on mongodb", r.Mode, r.OK, r.Dialect)
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
