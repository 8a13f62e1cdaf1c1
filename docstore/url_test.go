package docstore_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"mongodb://localhost:27017/tasks", "tasks"},
		{"mongodb://localhost", docstore.DefaultDatabase},
		{"mongodb://localhost/", docstore.DefaultDatabase},
		{"mongodb://u:p%40ss@h1:27017,h2:27018/tasks?replicaSet=rs0", "tasks"},
		{"mongodb://h/?authSource=admin", docstore.DefaultDatabase},
		{"mongodb+srv://user:secret@cluster0.example.net/tasks?retryWrites=true", "tasks"},
		{"mongodb://h/t%C3%A4sks", "täsks"},
	} {
		got, err := docstore.ParseURL(tc.url)
		if err != nil || got != tc.want {
			t.Errorf("ParseURL(%q) = %q, %v; want %q", tc.url, got, err, tc.want)
		}
	}
}

func TestParseURLRefuses(t *testing.T) {
	for _, raw := range []string{
		"postgres://h/db",
		"mongodb://",
		"mongodb:///db",
		"mongodb+srv://user:secret@h1:27017/db",
		"mongodb+srv://h1,h2/db",
		"mongodb://user:secret@h/a.b",
		"mongodb://h/a b",
		"mongodb://h/a%2Fb",
		"mongodb://h/a%00b",
		"mongodb://h/%zz",
		"mongodb://h/" + strings.Repeat("d", 64),
	} {
		_, err := docstore.ParseURL(raw)
		if err == nil {
			t.Errorf("ParseURL(%q) accepted", raw)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("ParseURL(%q) = %v: the error repeats the password", raw, err)
		}
	}
}

func TestIsURL(t *testing.T) {
	for raw, want := range map[string]bool{
		"mongodb://h": true, "mongodb+srv://h": true, "sqlite:./x.db": false, "MONGODB://h": false, "": false,
	} {
		if got := docstore.IsURL(raw); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestConnectUsesTheURLsDatabase: the database the URL names is the one opened.
func TestConnectUsesTheURLsDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, err := url.Parse(docstoretest.ServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/named_db"
	conn, err := docstore.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	defer conn.DB.Drop(ctx)
	if got := conn.DB.Name(); got != "named_db" {
		t.Fatalf("database %q, want named_db", got)
	}
}

// TestConnectErrNoServer: an unreachable server fails Connect, and the password stays out.
func TestConnectErrNoServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := docstore.Connect(ctx, "mongodb://user:secret@127.0.0.1:1/db?serverSelectionTimeoutMS=500")
	if err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatalf("error %v repeats the password", err)
	}
}
