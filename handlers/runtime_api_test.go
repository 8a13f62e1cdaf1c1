package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/store"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// runtimeCallers maps a bearer token to its actor.
type runtimeCallers map[string]models.Actor

func (m runtimeCallers) Actor(_ context.Context, token string) (models.Actor, error) {
	a, ok := m[token]
	if !ok {
		return models.Actor{}, models.ErrUnauthorized
	}
	return a, nil
}

var runtimeTokens = runtimeCallers{
	"runtime":    {Tenant: "t1", System: true, Permissions: []string{models.PermRuntimeWrite}},
	"runtime-t2": {Tenant: "t2", System: true, Permissions: []string{"user-tasks/*:write"}},
	"everything": {Tenant: "t1", Permissions: []string{"*"}},
	"worker": {Tenant: "t1", Subject: models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "ann"},
		Permissions: []string{"user-tasks:*", "user-tasks/participants:view"}, Manager: true},
}

// runtimeEnv is the production router with the runtime protocol enabled (New with Runtime) and
// no task service: the body limit, the bearer middleware on each route, the one error handler.
type runtimeEnv struct {
	url   string
	store store.Store
}

func newRuntimeEnv(t *testing.T, openTasksPerTenant int) *runtimeEnv {
	t.Helper()
	store := testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{OpenTasksPerTenant: openTasksPerTenant})
	resolver := workflow.NewResolver(workflow.ResolverOptions{})
	e := New(Deps{Store: store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: runtimeTokens,
		Runtime: &RuntimeDeps{Projector: workflow.NewProjector(store, resolver), Finalizer: workflow.NewFinalizer(store)}})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &runtimeEnv{url: srv.URL, store: store}
}

// projected projects bookmark as token and requires a new task (201).
func (e *runtimeEnv) projected(t *testing.T, token, bookmark string) projectedJSON {
	t.Helper()
	a := e.post(t, token, "/bookmarks", bookmarkBody(bookmark, nil))
	var p projectedJSON
	if a.status != http.StatusCreated || json.Unmarshal(a.body, &p) != nil {
		t.Fatalf("project %s: status %d %s, want 201", bookmark, a.status, a.body)
	}
	return p
}

// runtimeAnswer is a response with its body read.
type runtimeAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (e *runtimeEnv) post(t *testing.T, token, path string, body any) runtimeAnswer {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1/runtime"+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return runtimeAnswer{status: resp.StatusCode, header: resp.Header, body: got}
}

// wantProblem checks a problem answer and returns its field names.
func (a runtimeAnswer) wantProblem(t *testing.T, status int, code models.Code) []string {
	t.Helper()
	var p problem
	if err := json.Unmarshal(a.body, &p); err != nil {
		t.Fatalf("status %d body %s: not a problem: %v", a.status, a.body, err)
	}
	if a.status != status || p.Code != code || p.Status != status {
		t.Fatalf("answer %d %s (%s), want %d %s", a.status, p.Code, a.body, status, code)
	}
	if ct := a.header.Get("Content-Type"); ct != problemContentType {
		t.Errorf("Content-Type = %q, want %q", ct, problemContentType)
	}
	var fields []string
	for _, f := range p.Errors {
		fields = append(fields, f.Field)
	}
	return fields
}

func (e *runtimeEnv) count(t *testing.T, tenant string) int {
	t.Helper()
	page, err := e.store.Query(context.Background(), models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
		Actor: models.Actor{Tenant: tenant, Manager: true}, IncludeTotal: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return *page.Total
}

// bookmarkBody is a valid projection body; edit changes its task member.
func bookmarkBody(bookmarkID string, edit func(task map[string]any)) map[string]any {
	task := map[string]any{
		"title":          "Approve invoice",
		"candidateUsers": []any{map[string]any{"id": "ann", "displayName": "Ann"}},
		"taskData":       map[string]any{"amount": 12},
		"form": map[string]any{"schema": map[string]any{"type": "object", "properties": map[string]any{
			"ok": map[string]any{"type": "boolean"}}}},
	}
	if edit != nil {
		edit(task)
	}
	return map[string]any{
		"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-" + bookmarkID, "activityInstanceId": "approve",
		"bookmarkId": bookmarkID, "task": task,
	}
}

func TestRuntimeProjection(t *testing.T) {
	// Each case projects into a server of its own, so it runs alone as well as in sequence.
	t.Run("Created", func(t *testing.T) {
		env := newRuntimeEnv(t, 0)
		a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-1", nil))
		if a.status != http.StatusCreated {
			t.Fatalf("status %d %s, want 201", a.status, a.body)
		}
		var first projectedJSON
		if err := json.Unmarshal(a.body, &first); err != nil {
			t.Fatal(err)
		}
		if first.TaskID == "" || first.Status != models.StatusAvailable || first.Revision != 1 || !first.Created {
			t.Errorf("answer = %+v", first)
		}
		if !strings.Contains(string(a.body), `"created":true`) {
			t.Errorf("body %s lacks created:true", a.body)
		}
	})

	t.Run("RepeatIsOK", func(t *testing.T) {
		env := newRuntimeEnv(t, 0)
		first := env.projected(t, "runtime", "bm-1")
		a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-1", nil))
		var again projectedJSON
		if a.status != http.StatusOK || json.Unmarshal(a.body, &again) != nil {
			t.Fatalf("status %d %s, want 200", a.status, a.body)
		}
		if again.TaskID != first.TaskID || again.Created || !strings.Contains(string(a.body), `"created":false`) {
			t.Errorf("repeat = %s, want task %s with created false", a.body, first.TaskID)
		}
	})

	t.Run("TenantFromToken", func(t *testing.T) {
		env := newRuntimeEnv(t, 0)
		env.projected(t, "runtime", "bm-1") // the same bookmark in t1 does not collide
		a := env.post(t, "runtime-t2", "/bookmarks", bookmarkBody("bm-1", nil))
		var got projectedJSON
		if a.status != http.StatusCreated || json.Unmarshal(a.body, &got) != nil {
			t.Fatalf("status %d %s, want 201 in t2", a.status, a.body)
		}
		task, err := env.store.Get(context.Background(), "t2", got.TaskID)
		if err != nil || task.Tenant != "t2" {
			t.Fatalf("task in t2: %+v, %v", task.Tenant, err)
		}
		for _, c := range task.Assignment.Candidates {
			if c.Participant.Tenant != "t2" {
				t.Errorf("candidate %+v is not in the token's tenant", c.Participant)
			}
		}
	})

	env := newRuntimeEnv(t, 0)
	t.Run("WildcardGrant", func(t *testing.T) {
		a := env.post(t, "everything", "/bookmarks", bookmarkBody("bm-wild", nil))
		if a.status != http.StatusCreated {
			t.Fatalf("status %d %s, want 201 for a * grant", a.status, a.body)
		}
	})

	before1, before2 := env.count(t, "t1"), env.count(t, "t2")
	huge := strings.Repeat("x", models.MaxRequestBodyBytes)
	bigField := strings.Repeat("x", models.MaxProtectedPayloadBytes+10)
	refusals := []struct {
		name   string
		token  string
		body   any
		status int
		code   models.Code
		fields []string
	}{
		{"Unauthenticated", "", bookmarkBody("bm-r1", nil), 401, models.CodeUnauthenticated, nil},
		{"UnknownToken", "nope", bookmarkBody("bm-r2", nil), 401, models.CodeUnauthenticated, nil},
		{"ForbiddenWithoutPermission", "worker", bookmarkBody("bm-r3", nil), 403, models.CodeForbidden, nil},
		{"ForbiddenBeforeParsing", "worker", `{not json`, 403, models.CodeForbidden, nil},
		{"Malformed", "runtime", `{"workflowDefinitionId":`, 400, models.CodeMalformedRequest, nil},
		{"NotAnObject", "runtime", `[1,2]`, 400, models.CodeMalformedRequest, nil},
		{"Empty", "runtime", ``, 400, models.CodeMalformedRequest, nil},
		{"TrailingData", "runtime", `{} {}`, 400, models.CodeMalformedRequest, nil},
		{"TooLarge", "runtime", `{"x":"` + huge + `"}`, 413, models.CodePayloadTooLarge, nil},
		{"TenantInBody", "runtime", func() any { b := bookmarkBody("bm-r4", nil); b["tenant"] = "t2"; return b }(),
			422, models.CodeValidationFailed, []string{"tenant"}},
		{"UnknownNestedField", "runtime", bookmarkBody("bm-r5", func(task map[string]any) {
			task["candidateUsers"] = []any{map[string]any{"id": "ann"}, map[string]any{"id": "bob", "email": "bob@example.com"}}
			task["colour"] = "red"
			task["form"] = map[string]any{"provider": "files", "key": "k", "revision": 2}
		}), 422, models.CodeValidationFailed, []string{"task.candidateUsers[1].email", "task.colour", "task.form.revision"}},
		{"WrongType", "runtime", bookmarkBody("bm-r6", func(task map[string]any) { task["priority"] = "high" }),
			422, models.CodeValidationFailed, []string{"task.priority"}},
		{"WrongNestedType", "runtime", bookmarkBody("bm-r12", func(task map[string]any) {
			task["candidateUsers"] = []any{map[string]any{"id": 3}}
			task["form"] = map[string]any{"provider": "files", "key": "k"}
		}), 422, models.CodeValidationFailed, []string{"task.candidateUsers.id"}},
		{"WrongVersionType", "runtime", bookmarkBody("bm-r13", func(task map[string]any) {
			task["form"] = map[string]any{"provider": "files", "key": "k", "version": true}
		}), 422, models.CodeValidationFailed, []string{"task.form.version"}},
		{"MissingFields", "runtime", map[string]any{"task": map[string]any{}},
			422, models.CodeValidationFailed, []string{"workflowDefinitionId", "workflowInstanceId", "activityInstanceId", "bookmarkId", "task.title"}},
		{"BadDueAt", "runtime", bookmarkBody("bm-r7", func(task map[string]any) { task["dueAt"] = "next week" }),
			422, models.CodeValidationFailed, []string{"task.dueAt"}},
		{"InvalidForm", "runtime", bookmarkBody("bm-r8", func(task map[string]any) { task["form"] = map[string]any{"schema": map[string]any{"type": "array"}} }),
			422, models.CodeValidationFailed, []string{"task.form.schema"}},
		{"ProtectedPayloadTooLarge", "runtime", bookmarkBody("bm-r9", func(task map[string]any) { task["instructions"] = bigField }),
			422, models.CodePayloadTooLarge, []string{"task.instructions"}},
		{"TaskDataTooLarge", "runtime", bookmarkBody("bm-r10", func(task map[string]any) { task["taskData"] = map[string]any{"x": bigField} }),
			422, models.CodePayloadTooLarge, []string{"task.taskData"}},
		{"TooManyCandidates", "runtime", bookmarkBody("bm-r11", func(task map[string]any) {
			var users []any
			for i := range models.MaxParticipantsPerTask + 1 {
				users = append(users, map[string]any{"id": fmt.Sprintf("u%d", i)})
			}
			task["candidateUsers"] = users
		}), 422, models.CodeValidationFailed, []string{"task.candidates"}},
	}
	for _, tc := range refusals {
		t.Run("Refused/"+tc.name, func(t *testing.T) {
			a := env.post(t, tc.token, "/bookmarks", tc.body)
			fields := a.wantProblem(t, tc.status, tc.code)
			for _, f := range tc.fields {
				if !slices.Contains(fields, f) {
					t.Errorf("fields = %v, want %q among them", fields, f)
				}
			}
			if strings.Contains(string(a.body), "next week") || strings.Contains(string(a.body), "bob@example.com") {
				t.Errorf("the problem echoes the request: %s", a.body)
			}
		})
	}
	if got1, got2 := env.count(t, "t1"), env.count(t, "t2"); got1 != before1 || got2 != before2 {
		t.Errorf("refused requests wrote tasks: t1 %d → %d, t2 %d → %d", before1, got1, before2, got2)
	}
}

func TestRuntimeRoutes(t *testing.T) {
	env := newRuntimeEnv(t, 0)
	resp, err := http.Get(env.url + "/api/v1/runtime/bookmarks")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET bookmarks = %d, want 405", resp.StatusCode)
	}
	env.post(t, "runtime", "/nothing", map[string]any{}).wantProblem(t, http.StatusNotFound, models.CodeNotFound)

	t.Run("GroupMiddleware", func(t *testing.T) {
		// Mounted behind the group's middleware instead, the routes behave the same.
		e := echo.New()
		e.HTTPErrorHandler = errorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
		RegisterRuntime(e.Group("/api/v1/runtime", authenticate(runtimeTokens)), workflow.NewProjector(env.store, nil), workflow.NewFinalizer(env.store))
		srv := httptest.NewServer(e)
		defer srv.Close()
		other := &runtimeEnv{url: srv.URL, store: env.store}
		if a := other.post(t, "runtime", "/bookmarks", bookmarkBody("bm-group", nil)); a.status != http.StatusCreated {
			t.Errorf("projection: %d %s", a.status, a.body)
		}
		other.post(t, "", "/bookmarks", bookmarkBody("bm-group", nil)).wantProblem(t, http.StatusUnauthorized, models.CodeUnauthenticated)
		other.post(t, "worker", "/bookmarks/removed", map[string]any{"bookmarkIds": []string{"bm-group"}}).wantProblem(t, http.StatusForbidden, models.CodeForbidden)
	})

	t.Run("NoMiddleware", func(t *testing.T) {
		// Mounted without authentication by mistake, every call is refused.
		e := echo.New()
		e.HTTPErrorHandler = errorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
		RegisterRuntime(e.Group("/api/v1/runtime"), workflow.NewProjector(env.store, nil), workflow.NewFinalizer(env.store))
		srv := httptest.NewServer(e)
		defer srv.Close()
		other := &runtimeEnv{url: srv.URL, store: env.store}
		other.post(t, "runtime", "/bookmarks", bookmarkBody("bm-none", nil)).wantProblem(t, http.StatusUnauthorized, models.CodeUnauthenticated)
	})
}

func TestRuntimeProjectionCapacity(t *testing.T) {
	env := newRuntimeEnv(t, 1)
	if a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-1", nil)); a.status != http.StatusCreated {
		t.Fatalf("first: %d %s", a.status, a.body)
	}
	a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-2", nil))
	a.wantProblem(t, http.StatusTooManyRequests, models.CodeCapacityExceeded)
	if a.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	if n := env.count(t, "t1"); n != 1 {
		t.Errorf("tasks = %d, want 1", n)
	}
	// A repeat of the existing projection is still answered at capacity.
	if a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-1", nil)); a.status != http.StatusOK {
		t.Errorf("repeat at capacity: %d %s, want 200", a.status, a.body)
	}
}

func TestRuntimeBookmarksRemoved(t *testing.T) {
	env := newRuntimeEnv(t, 0)
	var created projectedJSON
	a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-1", nil))
	if err := json.Unmarshal(a.body, &created); err != nil || a.status != http.StatusCreated {
		t.Fatalf("project: %d %s", a.status, a.body)
	}
	status := func(t *testing.T) models.Status {
		t.Helper()
		task, err := env.store.Get(context.Background(), "t1", created.TaskID)
		if err != nil {
			t.Fatal(err)
		}
		return task.Status
	}

	refusals := []struct {
		name   string
		token  string
		body   any
		status int
		code   models.Code
		fields []string
	}{
		{"Unauthenticated", "", map[string]any{"bookmarkIds": []string{"bm-1"}}, 401, models.CodeUnauthenticated, nil},
		{"Forbidden", "worker", map[string]any{"bookmarkIds": []string{"bm-1"}}, 403, models.CodeForbidden, nil},
		{"Malformed", "runtime", `{"bookmarkIds": [`, 400, models.CodeMalformedRequest, nil},
		{"Missing", "runtime", map[string]any{}, 422, models.CodeValidationFailed, []string{"bookmarkIds"}},
		{"Null", "runtime", `{"bookmarkIds": null}`, 422, models.CodeValidationFailed, []string{"bookmarkIds"}},
		{"UnknownField", "runtime", map[string]any{"bookmarkIds": []string{"bm-1"}, "tenant": "t1"}, 422, models.CodeValidationFailed, []string{"tenant"}},
		{"WrongType", "runtime", map[string]any{"bookmarkIds": "bm-1"}, 422, models.CodeValidationFailed, []string{"bookmarkIds"}},
		{"TooMany", "runtime", map[string]any{"bookmarkIds": slices.Repeat([]string{"bm-1"}, workflow.MaxRemovedBookmarks+1)}, 422, models.CodeValidationFailed, []string{"bookmarkIds"}},
		{"EmptyID", "runtime", map[string]any{"bookmarkIds": []string{"bm-1", ""}}, 422, models.CodeValidationFailed, []string{"bookmarkIds[1]"}},
	}
	for _, tc := range refusals {
		t.Run("Refused/"+tc.name, func(t *testing.T) {
			fields := env.post(t, tc.token, "/bookmarks/removed", tc.body).wantProblem(t, tc.status, tc.code)
			for _, f := range tc.fields {
				if !slices.Contains(fields, f) {
					t.Errorf("fields = %v, want %q among them", fields, f)
				}
			}
			if got := status(t); got != models.StatusAvailable {
				t.Fatalf("a refused removal changed the task to %s", got)
			}
		})
	}

	t.Run("OtherTenantIsUnknown", func(t *testing.T) {
		a := env.post(t, "runtime-t2", "/bookmarks/removed", map[string]any{"bookmarkIds": []string{"bm-1"}})
		if a.status != http.StatusOK || string(a.body) != `{"finalized":[],"unknown":["bm-1"]}`+"\n" {
			t.Fatalf("answer %d %s", a.status, a.body)
		}
		if got := status(t); got != models.StatusAvailable {
			t.Errorf("t2's runtime finalized t1's task (%s)", got)
		}
	})

	want := fmt.Sprintf(`{"finalized":[%q],"unknown":["bm-nope"]}`+"\n", created.TaskID)
	t.Run("OK", func(t *testing.T) {
		a := env.post(t, "runtime", "/bookmarks/removed", map[string]any{"bookmarkIds": []string{"bm-1", "bm-nope"}})
		if a.status != http.StatusOK || string(a.body) != want {
			t.Fatalf("answer %d %s, want 200 %s", a.status, a.body, want)
		}
		if got := status(t); got != models.StatusCancelled {
			t.Errorf("status = %s, want Cancelled", got)
		}
	})

	t.Run("RepeatIsHarmless", func(t *testing.T) {
		a := env.post(t, "runtime", "/bookmarks/removed", map[string]any{"bookmarkIds": []string{"bm-1", "bm-nope"}})
		if a.status != http.StatusOK || string(a.body) != want {
			t.Fatalf("answer %d %s, want 200 %s", a.status, a.body, want)
		}
	})

	t.Run("EmptyList", func(t *testing.T) {
		a := env.post(t, "runtime", "/bookmarks/removed", map[string]any{"bookmarkIds": []string{}})
		if a.status != http.StatusOK || string(a.body) != `{"finalized":[],"unknown":[]}`+"\n" {
			t.Fatalf("answer %d %s", a.status, a.body)
		}
	})
}
