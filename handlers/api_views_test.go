package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

type savedViewWire struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Query  string `json:"query"`
	Href   string `json:"href"`
	Shared bool   `json:"shared"`
	Mine   bool   `json:"mine"`
	Owner  struct {
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
	} `json:"owner"`
}

func TestSavedViewsAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	bob := env.Token(t, handlerstest.Worker("acme", "bob"))
	boss := env.Token(t, handlerstest.Manager("acme", "max"))
	other := env.Token(t, handlerstest.Manager("globex", "max"))
	noView := env.Token(t, handlerstest.User{Tenant: "acme", ID: "nobody"})

	create := func(t *testing.T, token string, body any, status int) savedViewWire {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-task-views", Token: token, Body: body})
		resp.WantStatus(t, status)
		var v savedViewWire
		if status == http.StatusCreated {
			resp.JSON(t, &v)
		}
		return v
	}
	get := func(t *testing.T, token, id string) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-views/" + url.PathEscape(id), Token: token})
	}
	list := func(t *testing.T, token string) []savedViewWire {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-views", Token: token})
		resp.WantStatus(t, http.StatusOK)
		var out struct{ Items []savedViewWire }
		resp.JSON(t, &out)
		return out.Items
	}

	mine := create(t, ann, map[string]any{"name": "Überfällig", "query": "tab=available&cursor=abc&status=Available&sort=due&junk=1"}, http.StatusCreated)
	if mine.Query != "sort=due&status=Available&tab=available" || mine.Href != "/inbox?"+mine.Query || !mine.Mine || mine.Shared || mine.Owner.ID != "ann" {
		t.Fatalf("created %+v", mine)
	}
	shared := create(t, boss, map[string]any{"name": "Team", "query": "tab=all", "shared": true}, http.StatusCreated)

	t.Run("ListAndGet", func(t *testing.T) {
		if got := list(t, ann); len(got) != 1 || got[0].ID != mine.ID {
			t.Fatalf("ann's views %+v", got)
		}
		if got := list(t, bob); len(got) != 0 {
			t.Fatalf("bob sees %+v", got)
		}
		if got := list(t, other); len(got) != 0 {
			t.Fatalf("another tenant's manager sees %+v", got)
		}
		get(t, ann, mine.ID).WantStatus(t, http.StatusOK)
		get(t, boss, shared.ID).WantStatus(t, http.StatusOK)
	})

	t.Run("NotFound", func(t *testing.T) {
		for _, c := range []struct {
			who, token, id string
		}{
			{"AnotherPersonsPrivate", bob, mine.ID},
			{"APrivateToAManager", boss, mine.ID},
			{"SharedToAPerson", ann, shared.ID},
			{"CrossTenant", other, shared.ID},
			{"Hostile", ann, "a b?#ü"},
			{"Long", ann, strings.Repeat("9", 300)},
		} {
			get(t, c.token, c.id).WantProblem(t, http.StatusNotFound, "not-found")
			env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: "/api/v1/user-task-views/" + url.PathEscape(c.id), Token: c.token}).
				WantProblem(t, http.StatusNotFound, "not-found")
		}
	})

	t.Run("Refusals", func(t *testing.T) {
		for _, c := range []struct {
			name   string
			token  string
			body   any
			status int
			code   string
			c      handlerstest.Contract
		}{
			{"NoViewPermission", noView, map[string]any{"name": "x", "query": "status=Bogus"}, http.StatusForbidden, "forbidden", handlerstest.Conforms},
			{"PersonShares", ann, map[string]any{"name": "x", "query": "tab=history", "shared": true}, http.StatusForbidden, "forbidden", handlerstest.Conforms},
			{"PersonSavesAManagerTab", ann, map[string]any{"name": "x", "query": "tab=all"}, http.StatusForbidden, "forbidden", handlerstest.Conforms},
			{"DuplicateName", ann, map[string]any{"name": "ÜBERFÄLLIG", "query": "tab=history"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Conforms},
			{"EmptyName", ann, map[string]any{"name": " ", "query": "tab=history"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Conforms},
			{"ControlCharacter", ann, map[string]any{"name": "a\u0000b", "query": "tab=history"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Conforms},
			{"TooLong", ann, map[string]any{"name": strings.Repeat("n", 81), "query": "tab=history"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Conforms},
			{"BadQuery", ann, map[string]any{"name": "x", "query": "status=Bogus"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Conforms},
			{"UnknownMember", ann, map[string]any{"name": "x", "query": "tab=history", "owner": "bob"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Breaks},
			{"NotJSON", ann, "{", http.StatusBadRequest, "malformed-request", handlerstest.Breaks},
		} {
			t.Run(c.name, func(t *testing.T) {
				env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-task-views", Token: c.token, Body: c.body, Contract: c.c}).
					WantProblem(t, c.status, c.code)
			})
		}
	})

	t.Run("Delete", func(t *testing.T) {
		env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: "/api/v1/user-task-views/" + mine.ID, Token: ann}).WantStatus(t, http.StatusNoContent)
		get(t, ann, mine.ID).WantProblem(t, http.StatusNotFound, "not-found")
		env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: "/api/v1/user-task-views/" + shared.ID, Token: boss}).WantStatus(t, http.StatusNoContent)
	})

	t.Run("Unauthenticated", func(t *testing.T) {
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-views", Contract: handlerstest.Breaks}).
			WantProblem(t, http.StatusUnauthorized, "unauthenticated")
	})
}
