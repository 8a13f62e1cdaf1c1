package handlers_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/handlers/handlerstest"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// apiCall is one JSON API request over the fixture's server.
func (f *attackFixture) apiCall(t *testing.T, method, path, token string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// crossTenantBodies are well-formed requests of every JSON API route that names a task, a view
// or an invitation by id. A route missing here fails TestAttackCrossTenantEveryRoute: whoever
// adds one says what a well-formed request to it is.
var crossTenantBodies = map[string]any{
	"GET /api/v1/user-tasks/:id":                              nil,
	"PATCH /api/v1/user-tasks/:id":                            map[string]any{"expectedRevision": 1, "priority": 1},
	"GET /api/v1/user-tasks/:id/events":                       nil,
	"POST /api/v1/user-tasks/:id/claim":                       map[string]any{"expectedRevision": 1},
	"POST /api/v1/user-tasks/:id/release":                     map[string]any{"expectedRevision": 1},
	"POST /api/v1/user-tasks/:id/assign":                      map[string]any{"expectedRevision": 1, "assignee": map[string]any{"id": "ann"}},
	"POST /api/v1/user-tasks/:id/complete":                    map[string]any{"expectedRevision": 1, "operationId": "x", "actionKey": "Complete", "data": map[string]any{"approved": true}},
	"POST /api/v1/user-tasks/:id/cancel":                      map[string]any{"expectedRevision": 1, "operationId": "x", "reason": "mine now"},
	"POST /api/v1/user-tasks/:id/retry-resolution":            map[string]any{"expectedRevision": 1},
	"POST /api/v1/user-tasks/:id/reveal":                      map[string]any{"fieldKey": "iban"},
	"GET /api/v1/user-tasks/:id/access":                       nil,
	"POST /api/v1/user-tasks/:id/invitations":                 map[string]any{"definitionIndex": 0, "recipients": []string{"x@example.com"}},
	"GET /api/v1/user-tasks/:id/invitations":                  nil,
	"DELETE /api/v1/user-tasks/:id/invitations/:invitationId": nil,
	"POST /api/v1/user-tasks/:id/comments":                    map[string]any{"text": "mine now"},
	"GET /api/v1/user-tasks/:id/comments":                     nil,
	"DELETE /api/v1/user-tasks/:id/comments/:commentId":       nil,
	"GET /api/v1/user-task-views/:id":                         nil,
	"DELETE /api/v1/user-task-views/:id":                      nil,
	"POST /api/v1/user-tasks/:id/delegate":                    map[string]any{"expectedRevision": 1, "to": map[string]any{"id": "ann"}},
	"POST /api/v1/user-tasks/:id/return":                      map[string]any{"expectedRevision": 1},
	// A participant's id names a user of the caller's own tenant: crossTenantAbsences.
	"GET /api/v1/user-task-participants/:id/absence":    nil,
	"PUT /api/v1/user-task-participants/:id/absence":    nil,
	"DELETE /api/v1/user-task-participants/:id/absence": nil,
	// The guest API's tokens are secrets of one invitation, not ids in a tenant (TestGuestAPIFlow).
	"GET /api/v1/user-task-invitations/:token":         nil,
	"POST /api/v1/user-task-invitations/:token/verify": nil,
}

// TestAttackCrossTenantEveryRoute walks the router's JSON API routes with tokens of tenant t2 —
// a manager holding every permission and t2's workflow runtime — against tenant t1's task,
// invitation, saved view and bookmark: every route that names one answers what a made-up id
// gets, byte for byte (404 for tasks and views, never 403 or 200), every list and stream of
// t2 stays without t1's rows, and t1's task does not move.
// It runs on every provider: the tenant filter is in each dialect's SQL and the document
// store's queries.
func TestAttackCrossTenantEveryRoute(t *testing.T) {
	for _, p := range testfactory.Providers {
		t.Run(p.Name(), func(t *testing.T) { attackCrossTenantOn(t, p) })
	}
}

func attackCrossTenantOn(t *testing.T, p testfactory.Provider) {
	f := newAttackFixtureOn(t, p)
	ctx := context.Background()
	victim := f.task(t, "t1", func(p *models.Projection) {
		p.Invitations = []models.InvitationDefinition{{VerifierName: "code", AllowedActions: []string{models.ActionComplete}}}
	})
	inv := testfactory.Invitation(ctx, t, f.store, victim, nil)
	own := f.task(t, "t2", nil)
	view, err := tasks.NewInbox(f.store).SaveView(ctx, testfactory.Manager("t1", "boss"), tasks.SaveViewInput{Name: "t1 secret view", Query: "tab=all"})
	if err != nil {
		t.Fatal(err)
	}
	boss := f.token(t, handlerstest.Manager("t2", "boss"))
	remark := testfactory.Comment(ctx, t, f.store, victim, testfactory.Manager("t1", "boss"), "t1's secret remark")
	ids := map[string]string{"id": victim.ID, "invitationId": inv.ID, "token": inv.Token, "commentId": remark.ID}

	seen := 0
	for _, r := range f.routes() {
		if !strings.HasPrefix(r.Path, "/api/") {
			continue
		}
		key := r.Method + " " + r.Path
		if !strings.Contains(r.Path, "/:") {
			if _, ok := crossTenantNoID[key]; !ok {
				t.Errorf("%s: a JSON API route without an id that TestAttackCrossTenantEveryRoute does not know; add it to crossTenantNoID", key)
			}
			continue
		}
		body, ok := crossTenantBodies[key]
		if !ok {
			t.Errorf("%s: a JSON API route with an id that TestAttackCrossTenantEveryRoute does not know; add it to crossTenantBodies", key)
			continue
		}
		if strings.Contains(r.Path, "/:token") || strings.HasSuffix(r.Path, "/absence") {
			continue
		}
		seen++
		t.Run(key, func(t *testing.T) {
			theirs := ids
			if strings.HasPrefix(r.Path, "/api/v1/user-task-views/") {
				theirs = map[string]string{"id": view.ID}
			}
			suffix := ""
			if strings.HasSuffix(r.Path, "/access") {
				suffix = "?participant=user:ann"
			}
			missing := map[string]string{"id": models.NewID(), "invitationId": models.NewID(), "commentId": models.NewID()}
			wantStatus, want := f.apiCall(t, r.Method, fillRoute(r.Path, missing)+suffix, boss, body)
			gotStatus, got := f.apiCall(t, r.Method, fillRoute(r.Path, theirs)+suffix, boss, body)
			if wantStatus != http.StatusNotFound || gotStatus != http.StatusNotFound || !bytes.Equal(got, want) {
				t.Errorf("t1's ids answer %d\n%s\nmade-up ids answer %d\n%s\nwant both 404, the same", gotStatus, got, wantStatus, want)
			}
			if strings.Contains(r.Path, ":invitationId") {
				// t2's own task with t1's invitation: still nothing.
				status, _ := f.apiCall(t, r.Method, fillRoute(r.Path, map[string]string{"id": own.ID, "invitationId": inv.ID}), boss, body)
				if status != http.StatusNotFound {
					t.Errorf("t2's task with t1's invitation: %d, want 404", status)
				}
			}
		})
	}
	if seen < 15 {
		t.Fatalf("only %d id routes attacked", seen)
	}
	for key, check := range crossTenantNoID {
		t.Run(key, func(t *testing.T) { check(t, f, crossTenantVictim{task: victim, inv: inv, view: view, token: boss}) })
	}

	t.Run("Pages", func(t *testing.T) {
		b := f.signInAs(t, "t2", "boss")
		csrf := b.get("/inbox").csrf()
		pages := 0
		for _, r := range f.routes() {
			if strings.HasPrefix(r.Path, "/api/") || !strings.Contains(r.Path, "/:id") {
				continue
			}
			pages++
			send := func(params map[string]string) *webPage {
				path := fillRoute(r.Path, params)
				if r.Method == http.MethodGet {
					return b.get(path)
				}
				return b.send(r.Method, path, url.Values{"csrf_token": {csrf}, "expectedRevision": {"1"}, "reason": {"x"}, "assignee": {"user:boss"}})
			}
			theirs := map[string]string{"id": victim.ID, "invitationId": inv.ID}
			if strings.HasPrefix(r.Path, "/inbox/views/") {
				theirs = map[string]string{"id": view.ID}
			}
			got, want := send(theirs), send(map[string]string{"id": models.NewID(), "invitationId": models.NewID()})
			if got.status != http.StatusNotFound || want.status != http.StatusNotFound {
				t.Errorf("%s %s as t2's manager: t1's ids %d, made-up ids %d; want 404 both", r.Method, r.Path, got.status, want.status)
			}
		}
		if pages < 12 {
			t.Fatalf("only %d page routes with an id", pages)
		}
	})

	if got := f.current(t, victim.ID); got.Revision != victim.Revision {
		t.Errorf("t1's task moved to revision %d", got.Revision)
	}
	pending, views := 0, 0
	if p == testfactory.Mongo {
		pending = f.countDocuments(t, "user_task_invitations", bson.M{"_id": inv.ID, "status": "pending"})
		views = f.countDocuments(t, "user_task_saved_views", bson.M{"_id": view.ID})
	} else {
		pending = f.count(t, "SELECT COUNT(*) FROM user_task_invitations WHERE id = ? AND status = 'pending'", inv.ID)
		views = f.count(t, "SELECT COUNT(*) FROM user_task_saved_views WHERE id = ?", view.ID)
	}
	if pending != 1 {
		t.Error("t1's invitation is no longer pending")
	}
	if views != 1 {
		t.Error("t1's saved view is gone")
	}
}

// crossTenantVictim is what tenant t1 has and t2's manager token.
type crossTenantVictim struct {
	task  models.Task
	inv   testfactory.IssuedInvitation
	view  models.SavedView
	token string
}

// crossTenantNoID checks every JSON API route without an id: lists and streams of t2 hold
// nothing of t1, commands naming t1's tasks in their body refuse them.
var crossTenantNoID = map[string]func(t *testing.T, f *attackFixture, v crossTenantVictim){
	"GET /api/v1/openapi.json":  func(*testing.T, *attackFixture, crossTenantVictim) {},
	"GET /api/v1/me/absence":    crossTenantAbsences,
	"PUT /api/v1/me/absence":    crossTenantAbsences,
	"DELETE /api/v1/me/absence": crossTenantAbsences,
	"GET /api/v1/user-tasks": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantNoLeak(t, "/api/v1/user-tasks?scope=all&includeTotalCount=true", v)
	},
	"GET /api/v1/user-tasks/capabilities": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantNoLeak(t, "/api/v1/user-tasks/capabilities", v)
	},
	"GET /api/v1/user-task-participants": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantNoLeak(t, "/api/v1/user-task-participants?search=ann", v)
	},
	"GET /api/v1/user-task-views": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantNoLeak(t, "/api/v1/user-task-views", v)
	},
	"POST /api/v1/user-task-views": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		// A view of t2 with t1's name is t2's own, and t1's stays t1's.
		status, body := f.apiCall(t, http.MethodPost, "/api/v1/user-task-views", v.token, map[string]any{"name": v.view.Name, "query": "tab=all"})
		if status != http.StatusCreated || strings.Contains(string(body), v.view.ID) {
			t.Errorf("creating a view of t1's name: %d %s", status, body)
		}
	},
	"POST /api/v1/user-tasks/bulk": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		for _, action := range []map[string]any{
			{"action": "cancel", "reason": "mine now"},
			{"action": "assign", "assignee": map[string]any{"id": "boss"}},
			{"action": "schedule", "priority": 1},
			{"action": "retry-resolution"},
		} {
			action["operationId"], action["items"] = models.NewID(), []map[string]any{{"taskId": v.task.ID, "expectedRevision": v.task.Revision}}
			status, body := f.apiCall(t, http.MethodPost, "/api/v1/user-tasks/bulk", v.token, action)
			var res struct {
				Items []struct{ Outcome, Code string }
			}
			_ = json.Unmarshal(body, &res)
			if status != http.StatusOK || len(res.Items) != 1 || res.Items[0].Outcome != "refused" || res.Items[0].Code != string(models.CodeNotFound) {
				t.Errorf("bulk %s of t1's task: %d %s, want refused not-found", action["action"], status, body)
			}
		}
	},
	"GET /api/v1/user-tasks/stream": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantStreamSilent(t, v)
	},
	"POST /api/v1/runtime/bookmarks": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		// t2's runtime delivering t1's bookmark id gets a task of its own, never t1's.
		runtime := f.token(t, handlerstest.RuntimeUser("t2"))
		status, body := f.apiCall(t, http.MethodPost, "/api/v1/runtime/bookmarks", runtime, map[string]any{
			"workflowDefinitionId": "wf", "workflowInstanceId": v.task.Workflow.InstanceID, "activityInstanceId": v.task.Workflow.ActivityInstanceID,
			"bookmarkId": v.task.Workflow.BookmarkID, "task": map[string]any{"title": "t2's own"}})
		if status != http.StatusCreated || strings.Contains(string(body), v.task.ID) {
			t.Errorf("t2's runtime projecting t1's bookmark: %d %s, want a new task of t2", status, body)
		}
	},
	"POST /api/v1/runtime/bookmarks/removed": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		runtime := f.token(t, handlerstest.RuntimeUser("t2"))
		status, body := f.apiCall(t, http.MethodPost, "/api/v1/runtime/bookmarks/removed", runtime, map[string]any{"bookmarkIds": []string{v.task.Workflow.BookmarkID}})
		if status != http.StatusOK || strings.Contains(string(body), v.task.ID) {
			t.Errorf("t2's runtime removing t1's bookmark: %d %s", status, body)
		}
	},
	"GET /api/v1/user-task-sessions/current": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		// Another tenant's bearer token is no guest credential: the guest API's one refusal.
		status, body := f.apiCall(t, http.MethodGet, "/api/v1/user-task-sessions/current", v.token, nil)
		wantGuestDenied(t, status, body)
	},
	"POST /api/v1/user-task-sessions/current/complete": func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		body := map[string]any{"operationId": "x", "actionKey": "Complete"}
		status, raw := f.apiCall(t, http.MethodPost, "/api/v1/user-task-sessions/current/complete", v.token, body)
		wantGuestDenied(t, status, raw)
	},
}

// wantGuestDenied checks the guest API's one generic refusal.
func wantGuestDenied(t *testing.T, status int, body []byte) {
	t.Helper()
	if status != http.StatusForbidden || !strings.Contains(string(body), `"code":"`+string(models.CodeGuestAccessDenied)+`"`) {
		t.Errorf("%d %s, want 403 %s", status, body, models.CodeGuestAccessDenied)
	}
}

// wantNoLeak GETs path as t2's manager: 200, and nothing of t1's in the answer.
func (f *attackFixture) wantNoLeak(t *testing.T, path string, v crossTenantVictim) {
	t.Helper()
	status, body := f.apiCall(t, http.MethodGet, path, v.token, nil)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, status, body)
	}
	// Not the view's name: "POST /api/v1/user-task-views" (run in map order, maybe first) gives
	// t2 a view of its own with that name.
	for _, s := range []string{v.task.ID, v.inv.ID, v.view.ID, `"t1"`} {
		if strings.Contains(string(body), s) {
			t.Errorf("GET %s as t2 shows t1's %q:\n%s", path, s, body)
		}
	}
}

// wantStreamSilent subscribes t2's manager to the live stream, changes t1's task and then t2's
// own: the first event t2 hears is its own task's.
func (f *attackFixture) wantStreamSilent(t *testing.T, v crossTenantVictim) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+"/api/v1/user-tasks/stream", nil)
	req.Header.Set("Authorization", "Bearer "+v.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	lines := bufio.NewScanner(res.Body)
	// The stream is open once its first frame (a comment or the retry field) arrives.
	if !lines.Scan() {
		t.Fatal("the stream closed at once")
	}
	victim := f.task(t, "t1", nil) // its own task: the victim's revision is checked at the end
	if _, err := f.svc.UpdateSchedule(ctx, testfactory.Manager("t1", "boss"), victim.ID, tasks.ScheduleInput{Common: tasks.Common{ExpectedRevision: victim.Revision}, Priority: handlerstest.Ptr(7)}); err != nil {
		t.Fatal(err)
	}
	barrier := f.task(t, "t2", nil)
	for lines.Scan() {
		line := lines.Text()
		if !strings.HasPrefix(line, "data:") {
			continue
		}
		if strings.Contains(line, victim.ID) {
			t.Fatalf("t2 heard t1's task: %s", line)
		}
		if strings.Contains(line, barrier.ID) {
			return
		}
	}
	t.Fatalf("the stream ended before t2's own change: %v", lines.Err())
}

// count runs a counting query, written with ? placeholders, on the fixture's database.
func (f *attackFixture) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	store := f.sqlStore(t)
	db, err := store.DB()
	if err != nil {
		t.Fatal(err)
	}
	if store.Dialect() == migrations.Postgres {
		for i := 1; strings.Contains(query, "?"); i++ {
			query = strings.Replace(query, "?", fmt.Sprintf("$%d", i), 1)
		}
	}
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// crossTenantAbsences: t1's ann is away; t2's manager and t2's own ann read, replace and delete
// the absence of "ann" — in t2, where there is none or their own — and t1's stays as it was.
func crossTenantAbsences(t *testing.T, f *attackFixture, v crossTenantVictim) {
	ctx := context.Background()
	ann1 := models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "ann"}
	now := time.Now().UTC().Truncate(time.Second)
	a, err := models.NewAbsence("t1", ann1, now, now.Add(time.Hour), models.ParticipantRef{ID: "ben"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := f.store.PutAbsence(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	ann2 := f.token(t, handlerstest.Worker("t2", "ann"))
	put := map[string]any{"from": now.Format(time.RFC3339), "until": now.Add(2 * time.Hour).Format(time.RFC3339), "substitute": map[string]any{"id": "eve"}}
	for _, c := range []struct {
		method, path, token string
		body                any
		status              int
	}{
		{http.MethodGet, "/api/v1/user-task-participants/ann/absence", v.token, nil, http.StatusNotFound},
		{http.MethodGet, "/api/v1/me/absence", ann2, nil, http.StatusNotFound},
		{http.MethodDelete, "/api/v1/user-task-participants/ann/absence", v.token, nil, http.StatusNotFound},
		{http.MethodDelete, "/api/v1/me/absence", ann2, nil, http.StatusNotFound},
		{http.MethodPut, "/api/v1/user-task-participants/ann/absence", v.token, put, http.StatusOK},
		{http.MethodPut, "/api/v1/me/absence", ann2, put, http.StatusOK},
	} {
		if status, body := f.apiCall(t, c.method, c.path, c.token, c.body); status != c.status || strings.Contains(string(body), "ben") {
			t.Errorf("%s %s as t2: %d %s, want %d without t1's absence", c.method, c.path, status, body, c.status)
		}
	}
	got, err := f.store.Absence(ctx, "t1", ann1)
	if err != nil || got != want {
		t.Fatalf("t1's absence after t2's calls: %+v, %v; want %+v", got, err, want)
	}
	// Each route's entry runs this again from nothing.
	for _, tenant := range []string{"t1", "t2"} {
		ann := ann1
		ann.Tenant = tenant
		if err := f.store.DeleteAbsence(ctx, tenant, ann); err != nil {
			t.Fatal(err)
		}
	}
}
