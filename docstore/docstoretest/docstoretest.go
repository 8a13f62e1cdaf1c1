// Package docstoretest gives tests a document store server: the MongoDB at
// USERTASKS_TEST_MONGODB_URL when set, else FerretDB (SQLite handler, random port, data in a
// temporary folder) run by ferretdbd in a process of its own, started once per test binary and
// gone with it, its folder too. It hands out fresh, empty databases (DatabaseURL), the document
// store's counterpart of migrationstest; tests open stores through testfactory. Production code
// never imports it.
package docstoretest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
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

// Stop ends the embedded FerretDB and removes its data now, for a TestMain that wants it gone
// before the binary exits (ferretdbd stops and removes its folder when the binary ends anyway).
func Stop() {
	if shared.stop != nil {
		shared.stop()
	}
}

// DatabaseURL returns ServerURL naming a fresh, empty database of its own, dropped when the test
// ends (by a connection of its own: the test's stores may be closed by then).
func DatabaseURL(tb testing.TB) string {
	tb.Helper()
	u, err := url.Parse(ServerURL(tb))
	if err != nil {
		tb.Fatal("docstoretest: USERTASKS_TEST_MONGODB_URL does not parse")
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "t" + hex.EncodeToString(b)
	u.Path = "/" + name
	db := u.String()
	tb.Cleanup(func() {
		if err := drop(db, name); err != nil {
			tb.Errorf("docstoretest: drop database %s: %v", name, err)
		}
	})
	return db
}

func drop(rawURL, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(rawURL))
	if err != nil {
		return err
	}
	defer func() { _ = client.Disconnect(ctx) }()
	return client.Database(name).Drop(ctx)
}

func start() (string, func(), error) {
	if u := os.Getenv("USERTASKS_TEST_MONGODB_URL"); u != "" {
		return u, nil, nil
	}
	// The folder holds the binary and the SQLite files; ferretdbd removes it when it stops.
	dir, err := os.MkdirTemp("", "usertasks-ferretdb-")
	if err != nil {
		return "", nil, err
	}
	fail := func(err error) (string, func(), error) {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("embedded FerretDB: %w", err)
	}
	// A plain build (no -race) of ferretdbd, from the build cache after the first time.
	bin := filepath.Join(dir, "ferretdbd")
	build := exec.Command("go", "build", "-o", bin, "usertasks/docstore/docstoretest/ferretdbd")
	if out, err := build.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("go build ferretdbd: %v: %s", err, out))
	}
	cmd := exec.Command(bin, "-dir", dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe() // closed by stop, or by the kernel when this process dies
	if err != nil {
		return fail(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fail(fmt.Errorf("ferretdbd printed no URL: %w", err))
	}
	stop := func() {
		_ = stdin.Close()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir) // in case ferretdbd was killed before it could
	}
	return strings.TrimSpace(line), stop, nil
}
