// Package docstore is the document store of User Tasks on the MongoDB API (MongoDB itself or a
// compatible server such as FerretDB), designed in docs/document-store.md. It connects, derives
// its collections and indexes from the logical schema (migrations/logical) and migrates them,
// and Store holds the task aggregate: creation, reads, mutations and event appends under version
// claims, and the relay that moves events, operations and resumptions to their collections.
package docstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// DefaultDatabase is the database used when the URL names none.
const DefaultDatabase = "usertasks"

// IsURL reports whether rawURL selects the document store (mongodb:// or mongodb+srv://).
func IsURL(rawURL string) bool {
	return strings.HasPrefix(rawURL, "mongodb://") || strings.HasPrefix(rawURL, "mongodb+srv://")
}

// ParseURL checks the shape of a document-store URL, without the DNS lookups a mongodb+srv://
// URL needs (Connect does those), and returns the database it names: DefaultDatabase when none.
// Errors never repeat the URL, which may carry a password.
func ParseURL(rawURL string) (database string, err error) {
	rest, srv := "", false
	switch {
	case strings.HasPrefix(rawURL, "mongodb+srv://"):
		rest, srv = strings.TrimPrefix(rawURL, "mongodb+srv://"), true
	case strings.HasPrefix(rawURL, "mongodb://"):
		rest = strings.TrimPrefix(rawURL, "mongodb://")
	default:
		return "", errors.New("docstore: the URL must start with mongodb:// or mongodb+srv://")
	}
	hosts, path := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		hosts = rest[:i]
		if rest[i] == '/' {
			path, _, _ = strings.Cut(rest[i+1:], "?")
		}
	}
	if i := strings.LastIndex(hosts, "@"); i >= 0 {
		hosts = hosts[i+1:]
	}
	switch {
	case hosts == "":
		return "", errors.New("docstore: the database URL names no host")
	case srv && strings.ContainsAny(hosts, ",:"):
		return "", errors.New("docstore: a mongodb+srv:// URL names one host without a port")
	}
	name, err := url.PathUnescape(path)
	switch {
	case err != nil || strings.ContainsAny(name, "/\\. \"$\x00") || len(name) >= 64:
		return "", errors.New("docstore: the database name in the URL is not valid for MongoDB")
	case name == "":
		return DefaultDatabase, nil
	}
	return name, nil
}

// Conn is an open connection to the document store's database.
type Conn struct {
	client *mongo.Client
	// DB is the database the URL names.
	DB *mongo.Database
}

// Connect opens the database of rawURL and checks that the server answers.
func Connect(ctx context.Context, rawURL string) (*Conn, error) {
	name, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	opts := options.Client().ApplyURI(rawURL)
	if opts.ServerSelectionTimeout == nil {
		opts.SetServerSelectionTimeout(10 * time.Second)
	}
	client, err := mongo.Connect(opts)
	if err != nil {
		// A malformed option; the driver's message may quote the URL, so it is not passed on.
		return nil, errors.New("docstore: the database URL is not a valid MongoDB connection string")
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("docstore: the server does not answer: %w", err)
	}
	return &Conn{client: client, DB: client.Database(name)}, nil
}

// Close disconnects.
func (c *Conn) Close(ctx context.Context) error {
	return c.client.Disconnect(ctx)
}
