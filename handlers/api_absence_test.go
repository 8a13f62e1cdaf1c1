package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
)

// absence is an absence as the API answers it.
type absence struct {
	User       struct{ ID, Provider, Type string } `json:"user"`
	From       string                              `json:"from"`
	Until      string                              `json:"until"`
	Substitute struct{ ID, DisplayName string }    `json:"substitute"`
	Active     bool                                `json:"active"`
	CreatedAt  string                              `json:"createdAt"`
	UpdatedAt  string                              `json:"updatedAt"`
}

func TestAbsenceAPI(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Directory: peopleDirectory(t)})
	ann, ben, max := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "ben"), handlerstest.Manager("acme", "max")
	const me = "/api/v1/me/absence"
	of := func(id string) string { return "/api/v1/user-task-participants/" + url.PathEscape(id) + "/absence" }
	now := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	body := func(from, until time.Duration, sub map[string]any) map[string]any {
		return map[string]any{"from": at(from), "until": at(until), "substitute": sub}
	}
	do := func(t *testing.T, u handlerstest.User, method, path string, b any) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: method, Path: path, Token: env.Token(t, u), Body: b})
	}
	decode := func(t *testing.T, r handlerstest.Response) absence {
		t.Helper()
		r.WantStatus(t, http.StatusOK)
		var a absence
		r.JSON(t, &a)
		return a
	}

	t.Run("OKPutGetReplaceDelete", func(t *testing.T) {
		a := decode(t, do(t, ann, http.MethodPut, me, body(-time.Hour, 24*time.Hour, map[string]any{"id": "ben"})))
		if a.User.ID != "ann" || a.Substitute.ID != "ben" || a.Substitute.DisplayName != "Ben Brooks" || !a.Active || a.From != at(-time.Hour) {
			t.Fatalf("put = %+v, want ann away now with Ben Brooks as substitute", a)
		}
		if got := decode(t, do(t, ann, http.MethodGet, me, nil)); got != a {
			t.Fatalf("get = %+v, want %+v", got, a)
		}
		b := decode(t, do(t, ann, http.MethodPut, me, body(48*time.Hour, 72*time.Hour, map[string]any{"type": "user", "id": "cara"})))
		if b.Substitute.ID != "cara" || b.Active || b.CreatedAt != a.CreatedAt || b.From != at(48*time.Hour) {
			t.Fatalf("replace = %+v, want the future absence with cara, created kept", b)
		}
		do(t, ann, http.MethodDelete, me, nil).WantStatus(t, http.StatusNoContent)
		do(t, ann, http.MethodGet, me, nil).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, ann, http.MethodDelete, me, nil).WantProblem(t, http.StatusNotFound, "not-found")
	})

	t.Run("OKManagerForATeamMember", func(t *testing.T) {
		id := "zoë/x?y#z w"
		a := decode(t, do(t, max, http.MethodPut, of(id), body(0, time.Hour, map[string]any{"id": "ann"})))
		if a.User.ID != id || a.Substitute.ID != "ann" {
			t.Fatalf("put = %+v", a)
		}
		if got := decode(t, do(t, max, http.MethodGet, of(id), nil)); got.User.ID != id {
			t.Fatalf("get = %+v", got)
		}
		// Another tenant's manager names the same id in their own tenant: nothing there.
		do(t, handlerstest.Manager("globex", "gina"), http.MethodGet, of(id), nil).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, max, http.MethodDelete, of(id), nil).WantStatus(t, http.StatusNoContent)
	})

	t.Run("ErrForbidden", func(t *testing.T) {
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
			var b any
			if m == http.MethodPut {
				b = body(0, time.Hour, map[string]any{"id": "ben"})
			}
			do(t, ann, m, of("ben"), b).WantProblem(t, http.StatusForbidden, "forbidden")
		}
		do(t, handlerstest.RuntimeUser("acme"), http.MethodGet, me, nil).WantProblem(t, http.StatusForbidden, "forbidden")
	})

	t.Run("ErrNotFoundUnknownUser", func(t *testing.T) {
		do(t, max, http.MethodPut, of("zed"), body(0, time.Hour, map[string]any{"id": "ann"})).WantProblem(t, http.StatusNotFound, "not-found")
		do(t, max, http.MethodPut, of("gina"), body(0, time.Hour, map[string]any{"id": "ann"})).WantProblem(t, http.StatusNotFound, "not-found")
	})

	// The "Bad input": 422 and nothing written.
	for _, tt := range []struct {
		name     string
		body     map[string]any
		contract handlerstest.Contract
		code     string
		fields   []string
	}{
		{"SubstituteOneself", body(0, time.Hour, map[string]any{"id": "ben"}), handlerstest.Conforms, "validation-failed", []string{"substitute"}},
		{"SubstituteUnknown", body(0, time.Hour, map[string]any{"id": "zed"}), handlerstest.Conforms, "unknown-participant", []string{"substitute"}},
		{"SubstituteOfAnotherTenant", body(0, time.Hour, map[string]any{"id": "gina"}), handlerstest.Conforms, "unknown-participant", []string{"substitute"}},
		{"SubstituteAGroup", body(0, time.Hour, map[string]any{"type": "group", "id": "finance"}), handlerstest.Breaks, "validation-failed", []string{"substitute.type"}},
		{"SubstituteMissing", map[string]any{"from": at(0), "until": at(time.Hour)}, handlerstest.Breaks, "validation-failed", []string{"substitute"}},
		{"UntilBeforeFrom", body(time.Hour, 0, map[string]any{"id": "ann"}), handlerstest.Conforms, "validation-failed", []string{"until"}},
		{"UntilEqualsFrom", body(time.Hour, time.Hour, map[string]any{"id": "ann"}), handlerstest.Conforms, "validation-failed", []string{"until"}},
		{"LongerThan365Days", body(0, 366*24*time.Hour, map[string]any{"id": "ann"}), handlerstest.Conforms, "validation-failed", []string{"until"}},
		{"NotATime", map[string]any{"from": "tomorrow", "until": at(time.Hour), "substitute": map[string]any{"id": "ann"}}, handlerstest.Breaks, "validation-failed", []string{"from"}},
		{"UnknownMember", map[string]any{"from": at(0), "until": at(time.Hour), "substitute": map[string]any{"id": "ann"}, "note": "x"}, handlerstest.Breaks, "validation-failed", []string{"note"}},
	} {
		t.Run("ErrValidation_"+tt.name, func(t *testing.T) {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPut, Path: me, Token: env.Token(t, ben), Body: tt.body, Contract: tt.contract})
			p := resp.WantProblem(t, http.StatusUnprocessableEntity, tt.code)
			if !slices.Equal(p.Fields(), tt.fields) {
				t.Errorf("fields = %v, want %v", p.Fields(), tt.fields)
			}
			do(t, ben, http.MethodGet, me, nil).WantProblem(t, http.StatusNotFound, "not-found")
		})
	}
	t.Run("ErrValidationKeepsTheStoredAbsence", func(t *testing.T) {
		a := decode(t, do(t, ann, http.MethodPut, me, body(0, time.Hour, map[string]any{"id": "ben"})))
		do(t, ann, http.MethodPut, me, body(0, 400*24*time.Hour, map[string]any{"id": "cara"})).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		if got := decode(t, do(t, ann, http.MethodGet, me, nil)); got != a {
			t.Fatalf("after a refused put: %+v, want %+v", got, a)
		}
	})
}
