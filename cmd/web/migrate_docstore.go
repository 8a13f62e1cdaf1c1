package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"usertasks/docstore"
	"usertasks/migrations"
)

// migrateDocuments runs `web migrate up|status` on a document store (a mongodb:// or
// mongodb+srv:// USERTASKS_DATABASE_URL): its collections and indexes come from the logical
// schema, versioned by the logical schema's version. There is no down.
func migrateDocuments(ctx context.Context, action, url string, stdout io.Writer) error {
	if action != "up" && action != "status" {
		if action == "down" {
			return fmt.Errorf("%w: the document store has no down migration (migrate up is idempotent)", errUsage)
		}
		return fmt.Errorf("%w: unknown migrate action %q (want up or status on a document store)", errUsage, action)
	}
	conn, err := docstore.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if action == "status" {
		return documentStatus(ctx, conn, stdout)
	}
	changes, err := docstore.Up(ctx, conn.DB)
	for _, c := range changes {
		fmt.Fprintln(stdout, c)
	}
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		fmt.Fprintln(stdout, "schema is up to date")
	}
	return nil
}

// documentStatus prints the schema version and, per collection, what it lacks or has extra.
func documentStatus(ctx context.Context, conn *docstore.Conn, stdout io.Writer) error {
	current, latest, err := docstore.Check(ctx, conn.DB)
	state := "up to date"
	switch {
	case errors.Is(err, migrations.ErrPending):
		state = "pending: run 'web migrate up'"
	case errors.Is(err, migrations.ErrUnknownSchema):
		state = "newer than this binary"
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "document store schema version %d of %d: %s\n", current, latest, state)
	collections, err := docstore.Status(ctx, conn.DB)
	if err != nil {
		return err
	}
	for _, c := range collections {
		line := "ok"
		switch {
		case !c.Exists:
			line = "missing"
		case len(c.Missing) > 0 || len(c.Extra) > 0:
			var parts []string
			if len(c.Missing) > 0 {
				parts = append(parts, "missing indexes "+strings.Join(c.Missing, ", "))
			}
			if len(c.Extra) > 0 {
				parts = append(parts, "extra indexes "+strings.Join(c.Extra, ", "))
			}
			line = strings.Join(parts, "; ")
		}
		fmt.Fprintf(stdout, "%-28s %s\n", c.Name, line)
	}
	return nil
}
