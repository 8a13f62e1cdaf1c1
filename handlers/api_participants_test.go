package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"usertasks/directory"
	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// peopleDirectory is the directory of the participant tests: tenant acme with named users and
// groups (one id full of URL syntax and non-ASCII), and a tenant globex whose people acme never
// sees.
func peopleDirectory(t *testing.T) directory.Static {
	t.Helper()
	d, err := directory.ParseStatic([]byte(`{"tenants": {
	  "acme": {"users": [
	    {"id": "ann", "displayName": "Ann Lee", "groups": ["finance"]},
	    {"id": "ben", "displayName": "Ben Brooks", "groups": ["finance", "ops"]},
	    {"id": "cara", "displayName": "Cara Cole"},
	    {"id": "zoë/x?y#z w", "displayName": "Zoë Weird"},
	    {"id": "nameless"}],
	   "groups": [{"id": "finance", "displayName": "Finance"}, {"id": "ops", "displayName": "Operations"}]},
	  "globex": {"users": [{"id": "gina", "displayName": "Gina Gray"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type participantPage struct {
	Items []struct {
		Type        string `json:"type"`
		Provider    string `json:"provider"`
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
		Groups      []struct {
			Type        string `json:"type"`
			ID          string `json:"id"`
			DisplayName string `json:"displayName"`
		} `json:"groups"`
	} `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func (p participantPage) ids() []string {
	out := make([]string, len(p.Items))
	for i, it := range p.Items {
		out[i] = it.Type + ":" + it.ID
	}
	return out
}

func participants(t *testing.T, env *handlerstest.Env, u handlerstest.User, query url.Values) handlerstest.Response {
	t.Helper()
	return env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-participants?" + query.Encode(), Token: env.Token(t, u)})
}

func participantsPage(t *testing.T, env *handlerstest.Env, u handlerstest.User, query url.Values) participantPage {
	t.Helper()
	resp := participants(t, env, u, query)
	resp.WantStatus(t, http.StatusOK)
	var p participantPage
	resp.JSON(t, &p)
	return p
}

func TestParticipants(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: peopleDirectory(t)})
	max := handlerstest.Manager("acme", "max")

	t.Run("ErrForbidden", func(t *testing.T) {
		roleOnly := handlerstest.User{Tenant: "acme", ID: "rita", Roles: []string{"user-tasks:manager"}, Permissions: []string{models.PermView}}
		for _, u := range []handlerstest.User{handlerstest.Worker("acme", "ann"), roleOnly} {
			participants(t, env, u, nil).WantProblem(t, http.StatusForbidden, "forbidden")
		}
	})
	t.Run("OKManager", func(t *testing.T) {
		p := participantsPage(t, env, max, nil)
		want := []string{"user:ann", "user:ben", "user:cara", "group:finance", "user:nameless", "group:ops", "user:zoë/x?y#z w"}
		if !slices.Equal(p.ids(), want) || p.NextCursor != nil {
			t.Fatalf("page = %v (next %v), want %v and no next page", p.ids(), p.NextCursor, want)
		}
		if it := p.Items[0]; it.DisplayName != "Ann Lee" || it.Provider != "default" {
			t.Errorf("first = %+v, want Ann Lee of provider default", it)
		}
		if it := p.Items[4]; it.DisplayName != "nameless" || it.Groups != nil {
			t.Errorf("a participant without a name = %+v, want the id as its name and no groups", it)
		}
		if g := p.Items[1].Groups; len(g) != 2 || g[0].ID != "finance" || g[0].DisplayName != "Finance" || g[1].ID != "ops" || g[1].Type != "group" {
			t.Errorf("ben's groups = %+v, want finance and ops by name", g)
		}
		if g := p.Items[3].Groups; g != nil {
			t.Errorf("a group has groups: %+v", g)
		}
	})
	t.Run("OKAssignPermission", func(t *testing.T) {
		for _, perm := range []string{models.PermAssign, models.PermParticipantsView} {
			u := handlerstest.User{Tenant: "acme", ID: "asa", Permissions: []string{perm}}
			if p := participantsPage(t, env, u, url.Values{"search": {"cara"}}); !slices.Equal(p.ids(), []string{"user:cara"}) {
				t.Errorf("%s: page = %v, want cara", perm, p.ids())
			}
		}
	})
	t.Run("OKSearch", func(t *testing.T) {
		for search, want := range map[string][]string{
			"LEE":   {"user:ann"},
			"oper":  {"group:ops"},
			"zoë/x": {"user:zoë/x?y#z w"},
			"?y#z ": {"user:zoë/x?y#z w"},
			"gina":  {},
			"%":     {},
			"_":     {},
		} {
			if p := participantsPage(t, env, max, url.Values{"search": {search}}); !slices.Equal(p.ids(), want) {
				t.Errorf("search %q = %v, want %v", search, p.ids(), want)
			}
		}
	})
	t.Run("OKTypeFilter", func(t *testing.T) {
		if p := participantsPage(t, env, max, url.Values{"type": {"group"}}); !slices.Equal(p.ids(), []string{"group:finance", "group:ops"}) {
			t.Errorf("groups = %v", p.ids())
		}
		if p := participantsPage(t, env, max, url.Values{"type": {"user"}, "search": {"o"}}); !slices.Equal(p.ids(), []string{"user:ben", "user:cara", "user:zoë/x?y#z w"}) {
			t.Errorf("users with o = %v", p.ids())
		}
	})
	t.Run("OKPaging", func(t *testing.T) {
		var got []string
		q := url.Values{"limit": {"3"}}
		for range 5 {
			p := participantsPage(t, env, max, q)
			got = append(got, p.ids()...)
			if p.NextCursor == nil {
				break
			}
			q.Set("cursor", *p.NextCursor)
		}
		if want := participantsPage(t, env, max, nil).ids(); !slices.Equal(got, want) {
			t.Errorf("pages = %v, want %v", got, want)
		}
		if p := participantsPage(t, env, max, url.Values{"limit": {"1000"}}); len(p.Items) != 7 {
			t.Errorf("limit 1000: %d items, want all 7 (clamped, not refused)", len(p.Items))
		}
	})
	t.Run("OKTenantFromToken", func(t *testing.T) {
		gina := handlerstest.Manager("globex", "gina")
		if p := participantsPage(t, env, gina, url.Values{"search": {"a"}}); !slices.Equal(p.ids(), []string{"user:gina"}) {
			t.Errorf("globex = %v, want gina only", p.ids())
		}
		if p := participantsPage(t, env, gina, url.Values{"search": {"a"}, "tenant": {"acme"}}); !slices.Equal(p.ids(), []string{"user:gina"}) {
			t.Errorf("a tenant parameter changed the tenant: %v", p.ids())
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for name, c := range map[string]struct {
			query  url.Values
			field  string
			breaks bool
		}{
			"UnknownType": {url.Values{"type": {"robot"}}, "type", true},
			"TypeTwice":   {url.Values{"type": {"user", "group"}}, "type", false},
			"NUL":         {url.Values{"search": {"a\x00b"}}, "search", false},
			"Newline":     {url.Values{"search": {"a\nb"}}, "search", false},
			"Bidi":        {url.Values{"search": {"a\u202eb"}}, "search", false},
			"InvalidUTF8": {url.Values{"search": {"a\xffb"}}, "search", false},
			"Oversized":   {url.Values{"search": {strings.Repeat("a", 201)}}, "search", true},
			"ZeroLimit":   {url.Values{"limit": {"0"}}, "limit", true},
			"LimitNotInt": {url.Values{"limit": {"ten"}}, "limit", true},
		} {
			contract := handlerstest.Conforms
			if c.breaks {
				contract = handlerstest.Breaks
			}
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-participants?" + c.query.Encode(), Token: env.Token(t, max), Contract: contract})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{c.field}) {
				t.Errorf("%s: fields = %v, want [%s]", name, p.Fields(), c.field)
			}
		}
	})
	t.Run("ErrMalformedCursor", func(t *testing.T) {
		for _, cursor := range []string{"nope", "cHAxOjA", "cHAxOjUwMA", "ZXYxOjE"} {
			participants(t, env, max, url.Values{"cursor": {cursor}}).WantProblem(t, http.StatusBadRequest, "malformed-request")
		}
	})
	t.Run("Unauthenticated", func(t *testing.T) {
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-participants", Contract: handlerstest.Breaks}).WantProblem(t, http.StatusUnauthorized, "unauthenticated")
	})
}

func TestParticipantsWithoutDirectory(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	p := participantsPage(t, env, handlerstest.Manager("acme", "max"), url.Values{"search": {"ann"}})
	if len(p.Items) != 0 || p.NextCursor != nil {
		t.Errorf("page = %+v, want an empty page", p)
	}
	participants(t, env, handlerstest.Worker("acme", "ann"), nil).WantProblem(t, http.StatusForbidden, "forbidden")
}
