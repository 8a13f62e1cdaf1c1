// Command web is the User Tasks server and its operator tools.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], environ(os.Environ()), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
