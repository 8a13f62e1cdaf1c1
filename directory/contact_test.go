package directory_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"usertasks/directory"
	"usertasks/models"
)

func user(id string) models.ParticipantRef {
	return models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: id}
}

func TestStaticContact(t *testing.T) {
	ctx := context.Background()
	d, err := directory.ParseStatic([]byte(`{"tenants": {"t1": {"users": [
		{"id": "ann", "email": "ann@example.com"}, {"id": "ä b/?#"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		if got, err := d.Contact(ctx, "t1", user("ann")); err != nil || got != "ann@example.com" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("KnownWithoutAddress", func(t *testing.T) {
		if got, err := d.Contact(ctx, "t1", user("ä b/?#")); err != nil || got != "" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for name, tc := range map[string]struct {
			tenant string
			who    models.ParticipantRef
		}{
			"UnknownUser":   {"t1", user("bob")},
			"OtherTenant":   {"t2", user("ann")},
			"OtherProvider": {"t1", models.ParticipantRef{Provider: "idp2", Type: models.UserParticipant, ID: "ann"}},
			"Group":         {"t1", models.ParticipantRef{Provider: models.DefaultProvider, Type: models.GroupParticipant, ID: "ann"}},
		} {
			if _, err := d.Contact(ctx, tc.tenant, tc.who); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: %v, want not found", name, err)
			}
		}
	})
	t.Run("RefusesHeaderInjection", func(t *testing.T) {
		for _, bad := range []string{`"ann@example.com\r\nBcc: eve@example.com"`, `"Ann <ann@example.com>"`, `"not an address"`} {
			if _, err := directory.ParseStatic([]byte(`{"tenants": {"t1": {"users": [{"id": "ann", "email": ` + bad + `}]}}}`)); err == nil {
				t.Errorf("email %s accepted", bad)
			}
		}
	})
}

func TestHTTPContact(t *testing.T) {
	ctx := context.Background()
	var gotPath, gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotQuery = r.URL.EscapedPath(), r.URL.RawQuery
		switch r.URL.Path {
		case "/users/ä b/?#":
			w.Write([]byte(`{"id": "ä b/?#", "email": "odd@example.com"}`))
		case "/users/bad":
			w.Write([]byte(`{"id": "bad", "email": "x@example.com\r\nBcc: eve@example.com"}`))
		case "/users/liar":
			w.Write([]byte(`{"id": "someone-else", "email": "x@example.com"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	d, err := directory.NewHTTP(srv.URL, directory.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, err := d.Contact(ctx, "t 1", user("ä b/?#"))
		if err != nil || got != "odd@example.com" {
			t.Fatalf("got %q, %v", got, err)
		}
		if gotPath != "/users/%C3%A4%20b%2F%3F%23" || gotQuery != "provider=default&tenant=t+1" {
			t.Errorf("asked %s ? %s: the id must be one escaped path segment", gotPath, gotQuery)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := d.Contact(ctx, "t1", user("nobody")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("%v, want not found", err)
		}
	})
	t.Run("RefusesHeaderInjection", func(t *testing.T) {
		if got, err := d.Contact(ctx, "t1", user("bad")); err == nil {
			t.Fatalf("accepted %q", got)
		}
	})
	t.Run("RefusesAnotherUsersAnswer", func(t *testing.T) {
		if got, err := d.Contact(ctx, "t1", user("liar")); err == nil {
			t.Fatalf("accepted %q", got)
		}
	})
}
