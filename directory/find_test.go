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

func TestFind(t *testing.T) {
	ctx := context.Background()
	static, err := directory.ParseStatic([]byte(`{"tenants": {"t1": {"users": [
	  {"id": "ann", "displayName": "Ann Archer", "groups": ["finance"]}, {"id": "anna"}],
	  "groups": [{"id": "ops", "displayName": "Operations"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items": [{"type": "user", "id": "anna"}, {"type": "user", "id": "ann", "displayName": "Ann Archer"}]}`))
	}))
	t.Cleanup(srv.Close)
	remote, err := directory.NewHTTP(srv.URL, directory.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(typ models.ParticipantType, provider, id string) models.ParticipantRef {
		return models.ParticipantRef{Provider: provider, Type: typ, ID: id}
	}
	for name, d := range map[string]directory.Searcher{"Static": static, "HTTP": remote} {
		t.Run(name+"/OK", func(t *testing.T) {
			got, err := directory.Find(ctx, d, "t1", ref(models.UserParticipant, "default", "ann"))
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != "ann" || got.DisplayName != "Ann Archer" || got.Tenant != "t1" || got.Type != models.UserParticipant {
				t.Errorf("found %+v, want ann with her name in t1", got)
			}
		})
		t.Run(name+"/ErrNotFound", func(t *testing.T) {
			for _, p := range []models.ParticipantRef{
				ref(models.UserParticipant, "default", "Ann"), ref(models.UserParticipant, "default", "an"),
				ref(models.UserParticipant, "corp", "ann"), ref(models.UserParticipant, "default", "ann/../x?#"),
			} {
				if _, err := directory.Find(ctx, d, "t1", p); !errors.Is(err, models.ErrNotFound) {
					t.Errorf("%+v: error %v, want not found", p, err)
				}
			}
		})
	}
	t.Run("Static/Groups", func(t *testing.T) {
		for id, want := range map[string]string{"ops": "Operations", "finance": ""} {
			got, err := directory.Find(ctx, static, "t1", ref(models.GroupParticipant, "default", id))
			if err != nil || got.DisplayName != want {
				t.Errorf("group %s: %+v, %v; want name %q", id, got, err, want)
			}
		}
		if _, err := directory.Find(ctx, static, "t2", ref(models.UserParticipant, "default", "ann")); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("other tenant: error %v, want not found", err)
		}
	})
}

func TestGroupsOf(t *testing.T) {
	static, err := directory.ParseStatic([]byte(`{"tenants": {"t1": {"users": [
	  {"id": "ann", "groups": ["finance", "ops"]}, {"id": "bob"}],
	  "groups": [{"id": "ops", "displayName": "Operations"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	user := func(provider, id string) models.ParticipantRef {
		return models.ParticipantRef{Provider: provider, Type: models.UserParticipant, ID: id}
	}
	got := directory.GroupsOf(static, "t1", user("default", "ann"))
	if refIDs(got) != "group:finance,group:ops" || got[1].DisplayName != "Operations" || got[0].Tenant != "t1" {
		t.Errorf("groups of ann = %+v", got)
	}
	for _, u := range []models.ParticipantRef{user("default", "bob"), user("corp", "ann"), user("default", "zed")} {
		if got := directory.GroupsOf(static, "t1", u); got != nil {
			t.Errorf("groups of %+v = %+v, want none", u, got)
		}
	}
	if got := directory.GroupsOf(static, "t2", user("default", "ann")); got != nil {
		t.Errorf("another tenant: %+v", got)
	}
}
