package handlers_test

import (
	"net/http"
	"slices"
	"testing"

	"usertasks/handlers/handlerstest"
)

func TestCapabilities(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	type caps struct {
		Tenant  string `json:"tenant"`
		Subject struct {
			Type, Provider, ID, DisplayName string
		} `json:"subject"`
		Manager      bool     `json:"manager"`
		CanView      bool     `json:"canView"`
		CanClaim     bool     `json:"canClaim"`
		CanComplete  bool     `json:"canComplete"`
		CanAssign    bool     `json:"canAssign"`
		CanCancel    bool     `json:"canCancel"`
		CanSupervise bool     `json:"canSupervise"`
		Scopes       []string `json:"scopes"`
	}
	get := func(t *testing.T, u handlerstest.User) caps {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks/capabilities", Token: env.Token(t, u)})
		resp.WantStatus(t, http.StatusOK)
		var c caps
		resp.JSON(t, &c)
		return c
	}

	t.Run("Worker", func(t *testing.T) {
		got := get(t, handlerstest.Worker("acme", "ann"))
		if got.Tenant != "acme" || got.Subject.ID != "ann" || got.Subject.Type != "user" || got.Subject.Provider != "default" {
			t.Errorf("identity = %s %+v, want acme user default/ann", got.Tenant, got.Subject)
		}
		if !got.CanView || !got.CanClaim || !got.CanComplete || got.Manager || got.CanAssign || got.CanCancel || got.CanSupervise {
			t.Errorf("flags = %+v, want view, claim and complete only", got)
		}
		if want := []string{"assigned", "available", "history"}; !slices.Equal(got.Scopes, want) {
			t.Errorf("scopes = %v, want %v", got.Scopes, want)
		}
	})
	t.Run("Manager", func(t *testing.T) {
		got := get(t, handlerstest.Manager("acme", "max"))
		if !got.Manager || !got.CanAssign || !got.CanCancel || !got.CanSupervise {
			t.Errorf("flags = %+v, want a manager's", got)
		}
		if want := []string{"assigned", "available", "history", "all", "needs-attention"}; !slices.Equal(got.Scopes, want) {
			t.Errorf("scopes = %v, want %v", got.Scopes, want)
		}
	})
	t.Run("NoPermissions", func(t *testing.T) {
		got := get(t, handlerstest.User{Tenant: "acme", ID: "nobody"})
		if got.CanView || got.CanClaim || len(got.Scopes) != 0 {
			t.Errorf("flags = %+v, want none", got)
		}
	})
}
