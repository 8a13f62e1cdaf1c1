// Package docstoretest gives tests a document store: the MongoDB at USERTASKS_TEST_MONGODB_URL
// when set, else an embedded FerretDB (SQLite handler, random port, data in a temporary folder)
// started once per test binary. Production code never imports it.
package docstoretest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/FerretDB/FerretDB/ferretdb"
)

var shared struct {
	once sync.Once
	url  string
	err  error
	stop func()
}

// ServerURL returns the document store's URL (without a database), starting the embedded
// FerretDB on first use.
func ServerURL(tb testing.TB) string {
	tb.Helper()
	shared.once.Do(func() { shared.url, shared.stop, shared.err = start() })
	if shared.err != nil {
		tb.Fatalf("docstoretest: %v", shared.err)
	}
	return shared.url
}

// RealMongoDB reports whether the tests run on USERTASKS_TEST_MONGODB_URL rather than the
// embedded FerretDB.
func RealMongoDB() bool { return os.Getenv("USERTASKS_TEST_MONGODB_URL") != "" }

// Stop ends the embedded FerretDB and removes its data; TestMain calls it after m.Run.
func Stop() {
	if shared.stop != nil {
		shared.stop()
	}
}

// DatabaseURL returns ServerURL naming a fresh database of its own (the caller drops it).
func DatabaseURL(tb testing.TB) string {
	tb.Helper()
	u, err := url.Parse(ServerURL(tb))
	if err != nil {
		tb.Fatal("docstoretest: USERTASKS_TEST_MONGODB_URL does not parse")
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	u.Path = "/t" + hex.EncodeToString(b)
	return u.String()
}

func start() (string, func(), error) {
	if u := os.Getenv("USERTASKS_TEST_MONGODB_URL"); u != "" {
		return u, nil, nil
	}
	dir, err := os.MkdirTemp("", "usertasks-ferretdb-")
	if err != nil {
		return "", nil, err
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
		Logger:    slog.New(slog.DiscardHandler),
	})
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("embedded FerretDB: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	stop := func() {
		cancel()
		<-done
		_ = os.RemoveAll(dir)
	}
	return f.MongoDBURI(), stop, nil
}
