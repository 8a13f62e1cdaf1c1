// Command ferretdbd runs an embedded FerretDB (SQLite handler) for the tests in a process of its
// own, so the race detector of `go test -race` does not instrument the database server as well:
// that made the document store tests five times slower. It prints the server's MongoDB URL on
// the first line of its output and stops when its standard input closes, which happens when the
// test binary that started it ends, however it ends; then it removes its folder, so a test
// binary leaves nothing behind without a TestMain to clean up.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	dir := flag.String("dir", "", "folder for the SQLite files, removed when the server stops")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "ferretdbd: -dir is required")
		os.Exit(2)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: "file:" + *dir + "/",
		Logger:    slog.New(slog.DiscardHandler),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdbd: %v\n", err)
		_ = os.RemoveAll(*dir)
		os.Exit(1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	fmt.Println(f.MongoDBURI())
	<-done
	_ = os.RemoveAll(*dir)
}
