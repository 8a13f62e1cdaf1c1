package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

type page struct {
	Items []struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Priority int    `json:"priority"`
		Status   string `json:"status"`
	} `json:"items"`
	NextCursor *string `json:"nextCursor"`
	TotalCount *int    `json:"totalCount"`
	raw        map[string]json.RawMessage
}

func (p page) titles() []string {
	out := []string{}
	for _, it := range p.Items {
		out = append(out, it.Title)
	}
	return out
}

func listPage(t *testing.T, env *handlerstest.Env, u handlerstest.User, query string) page {
	t.Helper()
	resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + query, Token: env.Token(t, u)})
	resp.WantStatus(t, http.StatusOK)
	var p page
	resp.JSON(t, &p)
	resp.JSON(t, &p.raw)
	return p
}

// listAll follows nextCursor from query to the last page.
func listAll(t *testing.T, env *handlerstest.Env, u handlerstest.User, query string) []string {
	t.Helper()
	var titles []string
	cursor := ""
	for range 100 {
		q := query
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		p := listPage(t, env, u, q)
		titles = append(titles, p.titles()...)
		if p.NextCursor == nil {
			return titles
		}
		cursor = *p.NextCursor
	}
	t.Fatal("more than 100 pages")
	return nil
}

func TestListTasks(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann", "finance"), handlerstest.Manager("acme", "max")
	day := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Second)
	env.Task(t, handlerstest.TaskOpts{Title: "a-assigned", Assignee: "ann", Priority: handlerstest.Ptr(10), Tags: []string{"Urgent"}, Reference: "INV-1"})
	env.Task(t, handlerstest.TaskOpts{Title: "b-assigned", Assignee: "ann", Priority: handlerstest.Ptr(90), DueAt: &day, TaskType: "review"})
	env.Task(t, handlerstest.TaskOpts{Title: "c-available", Candidates: []string{"ann"}, Priority: handlerstest.Ptr(50), Summary: "100% sure_thing"})
	env.Task(t, handlerstest.TaskOpts{Title: "d-group", Groups: []string{"finance"}, Priority: handlerstest.Ptr(70)})
	env.Task(t, handlerstest.TaskOpts{Title: "e-other", Assignee: "bob"})
	env.Task(t, handlerstest.TaskOpts{Title: "f-excluded", Groups: []string{"finance"}, Excluded: []string{"ann"}})

	t.Run("DefaultScopeAssigned", func(t *testing.T) {
		p := listPage(t, env, ann, "")
		if got, want := p.titles(), []string{"b-assigned", "a-assigned"}; !slices.Equal(got, want) {
			t.Errorf("titles = %v, want %v (created, newest first)", got, want)
		}
		if p.NextCursor != nil {
			t.Errorf("nextCursor = %q, want null", *p.NextCursor)
		}
		if _, ok := p.raw["totalCount"]; ok {
			t.Error("totalCount present without includeTotalCount")
		}
	})
	t.Run("Available", func(t *testing.T) {
		if got, want := listPage(t, env, ann, "scope=available&sort=title").titles(), []string{"c-available", "d-group"}; !slices.Equal(got, want) {
			t.Errorf("titles = %v, want %v", got, want)
		}
	})
	t.Run("AllForManagers", func(t *testing.T) {
		p := listPage(t, env, max, "scope=all&includeTotalCount=true&sort=title&limit=2")
		if got, want := p.titles(), []string{"a-assigned", "b-assigned"}; !slices.Equal(got, want) {
			t.Errorf("titles = %v, want %v", got, want)
		}
		if p.TotalCount == nil || *p.TotalCount != 6 {
			t.Errorf("totalCount = %v, want 6", p.TotalCount)
		}
	})
	t.Run("PagingMatchesOnePage", func(t *testing.T) {
		for _, sort := range []string{"created", "due", "priority", "title", "updated", "completed"} {
			for _, dir := range []string{"", "&direction=asc", "&direction=desc"} {
				q := "scope=all&sort=" + sort + dir
				one := listPage(t, env, max, q+"&limit=200").titles()
				if got := listAll(t, env, max, q+"&limit=1"); !slices.Equal(got, one) {
					t.Errorf("%s: paged = %v, one page = %v", q, got, one)
				}
			}
		}
	})
	t.Run("SortDefaults", func(t *testing.T) {
		if got, want := listPage(t, env, ann, "sort=priority").titles(), []string{"a-assigned", "b-assigned"}; !slices.Equal(got, want) {
			t.Errorf("sort=priority: %v, want %v (ascending)", got, want)
		}
		if got, want := listPage(t, env, ann, "sort=priority&direction=desc").titles(), []string{"b-assigned", "a-assigned"}; !slices.Equal(got, want) {
			t.Errorf("sort=priority&direction=desc: %v, want %v", got, want)
		}
		if got, want := listPage(t, env, ann, "sort=created&direction=asc").titles(), []string{"a-assigned", "b-assigned"}; !slices.Equal(got, want) {
			t.Errorf("sort=created&direction=asc: %v, want %v", got, want)
		}
	})
	t.Run("Filters", func(t *testing.T) {
		from := url.QueryEscape(day.Add(-time.Hour).Format(time.RFC3339))
		to := url.QueryEscape(day.Add(time.Hour).Format(time.RFC3339))
		for q, want := range map[string][]string{
			"status=Assigned&status=Available": {"a-assigned", "b-assigned", "c-available", "d-group", "e-other", "f-excluded"},
			"status=Available,Unassigned":      {"c-available", "d-group", "f-excluded"},
			"status=Assigned":                  {"a-assigned", "b-assigned", "e-other"},
			"priorityFrom=60&priorityTo=95":    {"b-assigned", "d-group"},
			"tag=urgent":                       {"a-assigned"},
			"reference=INV-1":                  {"a-assigned"},
			"taskType=review":                  {"b-assigned"},
			"workflowDefinitionId=approval":    {"a-assigned", "b-assigned", "c-available", "d-group", "e-other", "f-excluded"},
			"workflowDefinitionId=other":       {},
			"search=100%25%20SURE":             {"c-available"},
			"search=sure_":                     {"c-available"},
			"search=%25":                       {"c-available"},
			"due=noDueDate&priorityFrom=80":    {},
			"from=" + from + "&to=" + to:       {"b-assigned"},
			"due=overdue":                      {},
		} {
			if got := listPage(t, env, max, "scope=all&sort=title&"+q).titles(); !slices.Equal(got, want) {
				t.Errorf("%s: titles = %v, want %v", q, got, want)
			}
		}
	})
	t.Run("HealthCodeForManagersOnly", func(t *testing.T) {
		var items, workerItems []map[string]json.RawMessage
		json.Unmarshal(listPage(t, env, max, "scope=all").raw["items"], &items)
		for _, it := range items {
			if _, ok := it["healthCode"]; !ok {
				t.Errorf("manager's item %s has no healthCode", it["title"])
			}
		}
		json.Unmarshal(listPage(t, env, ann, "scope=available").raw["items"], &workerItems)
		for _, it := range workerItems {
			if _, ok := it["healthCode"]; ok {
				t.Errorf("worker's item %s has a healthCode", it["title"])
			}
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for q, field := range map[string]string{
			"scope=mine":                 "scope",
			"sort=random":                "sort",
			"direction=sideways":         "direction",
			"due=yesterday":              "due",
			"limit=ten":                  "limit",
			"limit=0":                    "limit",
			"priorityFrom=high":          "priorityFrom",
			"priorityTo=101":             "priorityTo",
			"from=yesterday":             "from",
			"to=2026-13-01T00:00:00Z":    "to",
			"includeTotalCount=maybe":    "includeTotalCount",
			"status=Open":                "status",
			"status=Assigned,open":       "status",
			"search=" + longSearch(1001): "search",
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + q, Token: env.Token(t, max), Contract: handlerstest.Breaks})
			p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if got, want := p.Fields(), []string{field}; !slices.Equal(got, want) {
				t.Errorf("%s: fields = %v, want %v", q, got, want)
			}
		}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?sort=random&due=soon&limit=-1", Token: env.Token(t, max), Contract: handlerstest.Breaks})
		p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
		if got, want := p.Fields(), []string{"limit", "sort", "due"}; !slices.Equal(got, want) {
			t.Errorf("fields = %v, want %v (every offending parameter)", got, want)
		}
	})
	t.Run("LimitDefaultAndClamp", func(t *testing.T) {
		boss := handlerstest.Manager("initech", "boss")
		for range models.MaxPageSize + 1 {
			env.Task(t, handlerstest.TaskOpts{Tenant: "initech"})
		}
		for q, want := range map[string]int{"": 50, "&limit=7": 7, "&limit=200": 200, "&limit=201": 200, "&limit=100000": 200} {
			p := listPage(t, env, boss, "scope=all&includeTotalCount=true"+q)
			if len(p.Items) != want || p.NextCursor == nil || p.TotalCount == nil || *p.TotalCount != models.MaxPageSize+1 {
				t.Errorf("%q: %d items, cursor %v, total %s; want %d items, a cursor, total 201", q, len(p.Items), p.NextCursor != nil, p.raw["totalCount"], want)
			}
		}
	})
	t.Run("ErrMalformedRequest", func(t *testing.T) {
		for _, cursor := range []string{"garbage!", "eyJ2IjoxfQ", listPage(t, env, max, "scope=all&limit=1&sort=title").NextCursorOr(t)} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&sort=priority&cursor=" + url.QueryEscape(cursor), Token: env.Token(t, max)})
			p := resp.WantProblem(t, http.StatusBadRequest, "malformed-request")
			if got, want := p.Fields(), []string{"cursor"}; !slices.Equal(got, want) {
				t.Errorf("fields = %v, want %v", got, want)
			}
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		for _, scope := range []models.Scope{models.ScopeAll, models.ScopeNeedsAttention} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=" + string(scope), Token: env.Token(t, ann)})
			resp.WantProblem(t, http.StatusForbidden, "forbidden")
		}
		noView := handlerstest.User{Tenant: "acme", ID: "ann", Permissions: []string{models.PermClaim}}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks", Token: env.Token(t, noView)})
		resp.WantProblem(t, http.StatusForbidden, "forbidden")
	})
}

// NextCursorOr returns the page's cursor or fails.
func (p page) NextCursorOr(t *testing.T) string {
	t.Helper()
	if p.NextCursor == nil {
		t.Fatal("no nextCursor")
	}
	return *p.NextCursor
}

func longSearch(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}
