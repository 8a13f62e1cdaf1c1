package directory_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

func refIDs(refs []models.ParticipantRef) string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = string(r.Type) + ":" + r.ID
	}
	return strings.Join(out, ",")
}

func TestStaticDirectory(t *testing.T) {
	ctx := context.Background()
	const doc = `{"tenants": {
	  "t1": {"users": [{"id": "ann", "displayName": "Ann Archer", "groups": ["finance"]},
	                   {"id": "bob", "displayName": "Bob Baker", "groups": ["finance", "ops"]},
	                   {"id": "cid"}],
	         "groups": [{"id": "finance", "displayName": "Finance"}, {"id": "empty"}]},
	  "t2": {"provider": "corp", "users": [{"id": "dora", "groups": ["finance"]}], "groups": []}}}`
	path := filepath.Join(t.TempDir(), "directory.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := directory.LoadStatic(path)
	if err != nil {
		t.Fatal(err)
	}
	group := func(tenant, provider, id string) models.ParticipantRef {
		return models.ParticipantRef{Tenant: tenant, Provider: provider, Type: models.GroupParticipant, ID: id}
	}

	t.Run("Expand", func(t *testing.T) {
		members, err := d.Expand(ctx, "t1", group("t1", "default", "finance"))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := refIDs(members), "user:ann,user:bob"; got != want {
			t.Errorf("members = %s, want %s", got, want)
		}
		if m := members[0]; m.Tenant != "t1" || m.Provider != "default" || m.DisplayName != "Ann Archer" {
			t.Errorf("member = %+v", m)
		}
	})

	t.Run("ExpandGroupNamedOnlyByUsers", func(t *testing.T) {
		members, err := d.Expand(ctx, "t1", group("t1", "default", "ops"))
		if err != nil || refIDs(members) != "user:bob" {
			t.Fatalf("ops = %s, %v; want bob", refIDs(members), err)
		}
	})

	t.Run("ExpandEmptyGroup", func(t *testing.T) {
		members, err := d.Expand(ctx, "t1", group("t1", "default", "empty"))
		if err != nil || len(members) != 0 {
			t.Fatalf("empty = %v, %v; want no members and no error", members, err)
		}
	})

	t.Run("ExpandTenantProvider", func(t *testing.T) {
		members, err := d.Expand(ctx, "t2", group("t2", "corp", "finance"))
		if err != nil || refIDs(members) != "user:dora" || members[0].Provider != "corp" {
			t.Fatalf("t2 finance = %+v, %v", members, err)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		for name, g := range map[string]models.ParticipantRef{
			"UnknownGroup":  group("t1", "default", "nope"),
			"OtherProvider": group("t1", "corp", "finance"),
			"OtherTenant":   group("t3", "default", "finance"),
		} {
			tenant := g.Tenant
			if _, err := d.Expand(ctx, tenant, g); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: err = %v, want ErrNotFound", name, err)
			}
		}
	})

	t.Run("Search", func(t *testing.T) {
		got, err := d.Search(ctx, "t1", "B", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := "user:bob"; refIDs(got) != want {
			t.Errorf("search b = %s, want %s", refIDs(got), want)
		}
		got, _ = d.Search(ctx, "t1", "", models.GroupParticipant, 0)
		if want := "group:empty,group:finance,group:ops"; refIDs(got) != want {
			t.Errorf("groups = %s, want %s", refIDs(got), want)
		}
		got, _ = d.Search(ctx, "t1", "", "", 2)
		if len(got) != 2 {
			t.Errorf("limit 2 answered %d", len(got))
		}
		got, err = d.Search(ctx, "t9", "a", "", 10)
		if err != nil || len(got) != 0 {
			t.Errorf("unknown tenant = %v, %v; want empty", got, err)
		}
	})

	t.Run("ParseRefuses", func(t *testing.T) {
		for name, raw := range map[string]string{
			"UnknownMember": `{"tenants": {"t1": {"users": [{"id": "ann", "group": ["x"]}]}}}`,
			"EmptyID":       `{"tenants": {"t1": {"users": [{"id": ""}]}}}`,
			"DuplicateUser": `{"tenants": {"t1": {"users": [{"id": "a"}, {"id": "a"}]}}}`,
			"GuestProvider": `{"tenants": {"t1": {"provider": "guest", "users": []}}}`,
			"NotJSON":       `{"tenants": `,
			"Trailing":      `{"tenants": {}} {}`,
		} {
			if _, err := directory.ParseStatic([]byte(raw)); err == nil {
				t.Errorf("%s: parsed, want an error", name)
			}
		}
		if _, err := directory.LoadStatic(filepath.Join(t.TempDir(), "missing.json")); err == nil {
			t.Error("a missing file loaded")
		}
	})
}

func TestHTTPDirectory(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var gotAuth, gotPath, gotQuery string
	seen := func() (string, string, string) {
		mu.Lock()
		defer mu.Unlock()
		return gotAuth, gotPath, gotQuery
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dir/groups/{id}/members", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth, gotPath, gotQuery = r.Header.Get("Authorization"), r.URL.EscapedPath(), r.URL.RawQuery
		mu.Unlock()
		switch r.PathValue("id") {
		case "finance team":
			_ = json.NewEncoder(w).Encode(map[string]any{"members": []map[string]string{
				{"id": "ann", "displayName": "Ann"}, {"id": "bob", "provider": "corp"},
			}})
		case "empty":
			_, _ = w.Write([]byte(`{"members": []}`))
		case "broken":
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`secret internals`))
		case "garbage":
			_, _ = w.Write([]byte(`<html>`))
		case "nomembers":
			_, _ = w.Write([]byte(`{}`))
		case "groups":
			_, _ = w.Write([]byte(`{"members": [{"id": "x", "type": "group"}]}`))
		case "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		default:
			http.NotFound(w, r)
		}
	})
	mux.HandleFunc("GET /dir/participants", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotQuery = r.URL.RawQuery
		mu.Unlock()
		_, _ = w.Write([]byte(`{"items": [{"type": "user", "id": "ann", "displayName": "Ann"}, {"type": "group", "id": "finance"}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	d, err := directory.NewHTTP(srv.URL+"/dir/", directory.HTTPOptions{
		Timeout: 200 * time.Millisecond, Header: http.Header{"Authorization": {"Bearer dir-token"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	group := func(id string) models.ParticipantRef {
		return models.ParticipantRef{Tenant: "t 1", Provider: "default", Type: models.GroupParticipant, ID: id}
	}

	t.Run("Expand", func(t *testing.T) {
		members, err := d.Expand(ctx, "t 1", group("finance team"))
		if err != nil {
			t.Fatal(err)
		}
		if refIDs(members) != "user:ann,user:bob" || members[0].Provider != "default" || members[1].Provider != "corp" || members[0].Tenant != "t 1" {
			t.Errorf("members = %+v", members)
		}
		if gotAuth, gotPath, gotQuery := seen(); gotAuth != "Bearer dir-token" || gotPath != "/dir/groups/finance%20team/members" || gotQuery != "tenant=t+1" {
			t.Errorf("request auth %q path %q query %q", gotAuth, gotPath, gotQuery)
		}
	})

	t.Run("ExpandEmpty", func(t *testing.T) {
		members, err := d.Expand(ctx, "t 1", group("empty"))
		if err != nil || len(members) != 0 {
			t.Fatalf("empty = %v, %v", members, err)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := d.Expand(ctx, "t 1", group("unknown")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})

	t.Run("Errors", func(t *testing.T) {
		for id, want := range map[string]string{
			"broken":    "answered 500",
			"garbage":   "not the expected JSON",
			"nomembers": "no members array",
			"groups":    "not a user",
			"slow":      "no answer within 200ms",
		} {
			_, err := d.Expand(ctx, "t 1", group(id))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want it to say %q", id, err, want)
			}
			if err != nil && strings.Contains(err.Error(), "secret internals") {
				t.Errorf("%s: the error echoes the answer body", id)
			}
		}
	})

	t.Run("Search", func(t *testing.T) {
		got, err := d.Search(ctx, "t 1", "an", models.UserParticipant, 500)
		if err != nil {
			t.Fatal(err)
		}
		if refIDs(got) != "user:ann" {
			t.Errorf("search = %s, want user:ann (groups filtered out)", refIDs(got))
		}
		if _, _, gotQuery := seen(); gotQuery != "limit=200&search=an&tenant=t+1&type=user" {
			t.Errorf("query = %q", gotQuery)
		}
	})

	t.Run("BadBaseURL", func(t *testing.T) {
		for _, u := range []string{"", "ftp://x", "/relative", "http://x/?q=1"} {
			if _, err := directory.NewHTTP(u, directory.HTTPOptions{}); err == nil {
				t.Errorf("NewHTTP(%q) succeeded", u)
			}
		}
	})
}
