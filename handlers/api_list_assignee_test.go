package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// TestListAssigneeFilter: assignee=<type>:<id> (provider default unless assigneeProvider) and
// assignee=none narrow any list, across pages; they never widen a scope; malformed values are
// 422; a cursor reused with another assignee or health filter is 400.
func TestListAssigneeFilter(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann", "finance"), handlerstest.Manager("acme", "max")
	env.Task(t, handlerstest.TaskOpts{Title: "a-ann", Assignee: "ann"})
	env.Task(t, handlerstest.TaskOpts{Title: "b-ann", Assignee: "ann"})
	env.Task(t, handlerstest.TaskOpts{Title: "c-bob", Assignee: "bob"})
	env.Task(t, handlerstest.TaskOpts{Title: "d-odd", Assignee: "a/b?c#d ü"})
	env.Task(t, handlerstest.TaskOpts{Title: "e-free", Candidates: []string{"ann"}})
	env.Task(t, handlerstest.TaskOpts{Tenant: "globex", Title: "x-other-tenant", Assignee: "ann"})

	for _, c := range []struct {
		name, query string
		who         handlerstest.User
		want        []string
	}{
		{"OneAssignee", "scope=all&assignee=user:ann", max, []string{"a-ann", "b-ann"}},
		{"DefaultProviderNamed", "scope=all&assignee=user:ann&assigneeProvider=default", max, []string{"a-ann", "b-ann"}},
		{"OtherProvider", "scope=all&assignee=user:ann&assigneeProvider=ldap", max, nil},
		{"GroupIsNotUser", "scope=all&assignee=group:ann", max, nil},
		{"HostileID", "scope=all&assignee=" + url.QueryEscape("user:a/b?c#d ü"), max, []string{"d-odd"}},
		{"Unassigned", "scope=all&assignee=none", max, []string{"e-free"}},
		{"NeedsAttention", "scope=needs-attention&assignee=user:bob", max, nil},
		{"WorkerOwnTasks", "scope=assigned&assignee=user:ann", ann, []string{"a-ann", "b-ann"}},
		{"WorkerCannotWiden", "scope=assigned&assignee=user:bob", ann, nil},
		{"WorkerAvailableUnassigned", "scope=available&assignee=none", ann, []string{"e-free"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := listAll(t, env, c.who, c.query+"&sort=title&limit=1")
			if !slices.Equal(got, c.want) {
				t.Fatalf("titles %v, want %v", got, c.want)
			}
			p := listPage(t, env, c.who, c.query+"&includeTotalCount=true")
			if p.TotalCount == nil || *p.TotalCount != len(c.want) {
				t.Fatalf("totalCount %s, want %d", p.raw["totalCount"], len(c.want))
			}
		})
	}

	t.Run("WorkerForbiddenOnManagerScopes", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&assignee=user:bob", Token: env.Token(t, ann)})
		resp.WantProblem(t, http.StatusForbidden, "forbidden")
	})

	t.Run("MalformedIs422", func(t *testing.T) {
		for _, q := range []string{
			"assignee=ann",
			"assignee=robot:ann",
			"assignee=user:",
			"assignee=user:ann%00",
			"assignee=user:" + strings.Repeat("x", 300),
			"assignee=user:ann&assigneeProvider=" + strings.Repeat("p", 100),
			"assignee=user:ann&assigneeProvider=guest",
			"assignee=none&assigneeProvider=ldap",
			"assigneeProvider=ldap",
			"assignee=user:ann&assignee=user:bob",
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&" + q, Token: env.Token(t, max)})
			resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if body := string(resp.Body); strings.Contains(body, "xxxxxxxx") || strings.Contains(body, "pppppppp") {
				t.Errorf("%.60s: the problem echoes the input: %s", q, body)
			}
		}
	})

	t.Run("CursorBoundToFilters", func(t *testing.T) {
		first := listPage(t, env, max, "scope=all&assignee=user:ann&sort=title&limit=1")
		if first.NextCursor == nil {
			t.Fatal("no next cursor")
		}
		cur := "&cursor=" + url.QueryEscape(*first.NextCursor)
		next := listPage(t, env, max, "scope=all&assignee=user:ann&sort=title&limit=5"+cur)
		if !slices.Equal(next.titles(), []string{"b-ann"}) {
			t.Fatalf("second page %v", next.titles())
		}
		for _, q := range []string{
			"scope=all&assignee=user:bob&sort=title",
			"scope=all&sort=title",
			"scope=all&assignee=user:ann&sort=title&healthSeverity=blocking",
			"scope=all&assignee=user:ann&sort=title&healthCode=" + models.HealthNoParticipants,
			"scope=needs-attention&assignee=user:ann&sort=title",
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + q + cur, Token: env.Token(t, max)})
			resp.WantProblem(t, http.StatusBadRequest, "malformed-request")
		}
	})
}
