package handlers_test

import (
	"context"
	"os"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
	"usertasks/keyring"
	"usertasks/migrations"
	"usertasks/testfactory"
)

// TestMain stops the embedded FerretDB the document-store subtests started, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	docstoretest.Stop()
	os.Exit(code)
}

// documentStore stands for the document store among the SQL dialects the attacks loop over.
const documentStore migrations.Dialect = "documentstore"

// attackProviders are the stores the provider-dependent attacks run on: every SQL dialect of
// testfactory.SQLProviders and the document store.
var attackProviders = func() []migrations.Dialect {
	var ds []migrations.Dialect
	for _, p := range testfactory.SQLProviders {
		ds = append(ds, p.Dialect())
	}
	return append(ds, documentStore)
}()

// providerName names a provider's subtest.
func providerName(d migrations.Dialect) string {
	if d == documentStore {
		return "DocumentStore"
	}
	return testfactory.Provider(d).Name()
}

// openDocumentStore opens the document store on a fresh, migrated database of
// docstoretest's server; the store is closed and the database dropped when the test ends.
func openDocumentStore(t *testing.T, keys *keyring.Keyring) (*docstore.Store, string) {
	t.Helper()
	url := docstoretest.DatabaseURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := docstore.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = conn.DB.Drop(ctx)
		_ = conn.Close(ctx)
	})
	if _, err := docstore.Up(ctx, conn.DB); err != nil {
		t.Fatalf("migrate the document store: %v", err)
	}
	store, err := docstore.Open(ctx, docstore.Config{URL: url, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return store, url
}

// documents calls fn with every document of every collection of the fixture's document store
// and returns the collections' names.
func (f *attackFixture) documents(t *testing.T, fn func(collection string, doc bson.Raw)) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := f.docConn(t, ctx)
	names, err := conn.DB.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		cur, err := conn.DB.Collection(name).Find(ctx, bson.D{})
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		for cur.Next(ctx) {
			fn(name, cur.Current)
		}
		if err := cur.Err(); err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		_ = cur.Close(ctx)
	}
	return names
}

// countDocuments counts the documents of collection matching filter in the fixture's
// document store.
func (f *attackFixture) countDocuments(t *testing.T, collection string, filter bson.M) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := f.docConn(t, ctx).DB.Collection(collection).CountDocuments(ctx, filter)
	if err != nil {
		t.Fatalf("count %s: %v", collection, err)
	}
	return int(n)
}

// docConn is a connection of its own to the fixture's document store, closed when the test
// ends: the tests read what the store wrote, not through it.
func (f *attackFixture) docConn(t *testing.T, ctx context.Context) *docstore.Conn {
	t.Helper()
	conn, err := docstore.Connect(ctx, f.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}
