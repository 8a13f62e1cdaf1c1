package handlers_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/invitations"
	"usertasks/models"
	"usertasks/testfactory"
)

// guestClient calls the guest API of one env.
type guestClient struct {
	env *handlerstest.Env
}

func invitationPath(token string, suffix ...string) string {
	return "/api/v1/user-task-invitations/" + url.PathEscape(token) + strings.Join(suffix, "")
}

func (g guestClient) challenge(t *testing.T, token string) handlerstest.Response {
	t.Helper()
	return g.env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: invitationPath(token)})
}

func (g guestClient) verify(t *testing.T, token string, body any) handlerstest.Response {
	t.Helper()
	return g.env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: invitationPath(token, "/verify"), Body: body})
}

// verified verifies inv with its code and returns the session credential.
func (g guestClient) verified(t *testing.T, inv testfactory.IssuedInvitation) string {
	t.Helper()
	resp := g.verify(t, inv.Token, map[string]string{"code": inv.Code})
	resp.WantStatus(t, http.StatusOK)
	var v struct {
		SessionCredential string `json:"sessionCredential"`
		TaskID            string `json:"taskId"`
	}
	resp.JSON(t, &v)
	if v.TaskID != inv.TaskID || !invitations.PlausibleSecret(v.SessionCredential) {
		t.Fatalf("verification %+v", v)
	}
	return v.SessionCredential
}

func sessionHeader(credential string) http.Header {
	return http.Header{"Authorization": {"UserTaskSession " + credential}}
}

func (g guestClient) current(t *testing.T, credential string) handlerstest.Response {
	t.Helper()
	return g.env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-sessions/current", Header: sessionHeader(credential)})
}

func (g guestClient) complete(t *testing.T, credential string, body any) handlerstest.Response {
	t.Helper()
	return g.env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-task-sessions/current/complete",
		Header: sessionHeader(credential), Body: body})
}

// wantDenied checks the one generic refusal and returns its body.
func wantDenied(t *testing.T, resp handlerstest.Response) string {
	t.Helper()
	resp.WantProblem(t, http.StatusForbidden, string(models.CodeGuestAccessDenied))
	return string(resp.Body)
}

func issueOn(t *testing.T, env *handlerstest.Env, task models.Task, o *testfactory.InvitationOpts) testfactory.IssuedInvitation {
	t.Helper()
	return testfactory.Invitation(context.Background(), t, env.Store, task, o)
}

// TestGuestAPIFlow walks an invitation from challenge to completion, then looks for its
// secrets everywhere they must not be.
func TestGuestAPIFlow(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Instructions: "Check the invoice", Form: approvalForm,
		Data: approvalData, Actions: []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}}})
	other := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	inv := issueOn(t, env, task, &testfactory.InvitationOpts{AllowedActions: []string{"Approve"}})
	wrong := "000000"
	if inv.Code == wrong {
		wrong = "111111"
	}

	valid := g.challenge(t, inv.Token)
	valid.WantStatus(t, http.StatusOK)
	if got := string(valid.Body); !strings.Contains(got, `"challengeType":"code"`) || !strings.Contains(got, `"requiresCode":true`) {
		t.Fatalf("challenge %s", got)
	}
	unknown, _, _ := invitations.NewSecret()
	// At most 10 invitation requests per test server: the rate limit counts them all.
	for _, tok := range []string{unknown, "a b?c#d", strings.Repeat("x", 400)} {
		if got := g.challenge(t, tok); got.Status != http.StatusOK || string(got.Body) != string(valid.Body) {
			t.Errorf("challenge of %q: %d %s, want the valid token's answer", tok, got.Status, got.Body)
		}
	}

	refusal := wantDenied(t, g.verify(t, inv.Token, map[string]string{"code": wrong}))
	for name, resp := range map[string]handlerstest.Response{
		"UnknownToken": g.verify(t, unknown, map[string]string{"code": inv.Code}),
		"NoCode":       g.verify(t, inv.Token, map[string]string{}),
		"Malformed":    g.env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: invitationPath(inv.Token, "/verify"), Body: "{", Contract: handlerstest.Breaks}),
	} {
		if body := wantDenied(t, resp); body != refusal {
			t.Errorf("%s: %s, want the same refusal %s", name, body, refusal)
		}
	}
	credential := g.verified(t, inv)

	t.Run("GuestView", func(t *testing.T) {
		resp := g.current(t, credential)
		resp.WantStatus(t, http.StatusOK)
		var view struct {
			TaskID         string `json:"taskId"`
			Title          string `json:"title"`
			Instructions   string `json:"instructions"`
			Form           *struct{ Fields []struct{ Key string } }
			AllowedActions []models.Action `json:"allowedActions"`
		}
		resp.JSON(t, &view)
		if view.TaskID != task.ID || view.Title != task.Title || view.Instructions != "Check the invoice" || view.Form == nil ||
			len(view.AllowedActions) != 1 || view.AllowedActions[0].Key != "Approve" {
			t.Fatalf("view %+v", view)
		}
		var raw map[string]json.RawMessage
		resp.JSON(t, &raw)
		for _, key := range []string{"workflow", "candidates", "assignee", "requester", "history", "events", "health", "tags", "reference"} {
			if _, ok := raw[key]; ok {
				t.Errorf("the guest view has %q", key)
			}
		}
		body := string(resp.Body)
		if strings.Contains(body, `"canReveal":true`) {
			t.Errorf("the guest view offers a reveal: %s", body)
		}
		for _, leak := range []string{task.Workflow.InstanceID, task.Workflow.BookmarkID, task.Workflow.DefinitionID, "ann", "DE89370400440532013000"} {
			if leak != "" && strings.Contains(body, leak) {
				t.Errorf("the guest view shows %q: %s", leak, body)
			}
		}
	})

	t.Run("CredentialReachesNoOtherEndpoint", func(t *testing.T) {
		guestOnlyEverywhereElse(t, env, credential, task.ID, other.ID)
	})

	t.Run("ErrGuestDeniedBadCredential", func(t *testing.T) {
		for _, h := range []http.Header{
			{},
			{"Authorization": {"UserTaskSession"}},
			{"Authorization": {"UserTaskSession " + inv.Token}},
			{"Authorization": {"Bearer " + credential}},
			{"Authorization": {"UserTaskSession " + credential[:40] + "ü"}},
			{"Authorization": {"UserTaskSession " + credential + " " + credential}},
		} {
			contract := handlerstest.Conforms
			if len(h) == 0 {
				contract = handlerstest.Breaks
			}
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-task-sessions/current", Header: h, Contract: contract})
			if body := wantDenied(t, resp); !strings.Contains(body, "guest-access-denied") {
				t.Errorf("header %v: %s", h, body)
			}
		}
	})

	t.Run("ErrGuestDeniedOtherAction", func(t *testing.T) {
		resp := g.complete(t, credential, map[string]any{"operationId": "g-0", "actionKey": "Reject", "data": map[string]any{"approved": false}})
		wantDenied(t, resp) // an action outside the grant is not the guest's to take
		resp = env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-task-sessions/current/complete",
			Header: sessionHeader(credential), Body: map[string]any{"actionKey": "Approve"}, Contract: handlerstest.Breaks})
		resp.WantProblem(t, http.StatusUnprocessableEntity, string(models.CodeValidationFailed))
		if got := env.Get(t, task); got.Status != models.StatusAssigned {
			t.Fatalf("task %s", got.Status)
		}
	})

	t.Run("CompleteConsumes", func(t *testing.T) {
		resp := g.complete(t, credential, map[string]any{"operationId": "g-1", "actionKey": "Approve", "data": map[string]any{"approved": true}})
		resp.WantStatus(t, http.StatusAccepted)
		if got := env.Get(t, task); got.Status != models.StatusCompleting || got.Outcome.ActionKey != "Approve" {
			t.Fatalf("task %s %q", got.Status, got.Outcome.ActionKey)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_invitations WHERE id = ? AND status = 'consumed' AND consumed_at IS NOT NULL", inv.ID); n != 1 {
			t.Fatal("the invitation is not consumed")
		}
		wantDenied(t, g.current(t, credential))
		wantDenied(t, g.complete(t, credential, map[string]any{"operationId": "g-1", "actionKey": "Approve", "data": map[string]any{"approved": true}}))
	})

	t.Run("NoSecretAnywhere", func(t *testing.T) {
		secrets := map[string]string{"token": inv.Token, "credential": credential}
		scanTables(t, env, secrets, inv.Code)
		logs := env.Logs.String()
		for name, s := range secrets {
			if strings.Contains(logs, s) {
				t.Errorf("the log holds the %s", name)
			}
		}
		if strings.Contains(logs, `"`+inv.Code+`"`) || strings.Contains(logs, "/"+inv.Code) {
			t.Error("the log holds the code")
		}
		if !strings.Contains(logs, "/api/v1/user-task-invitations/:token/verify") {
			t.Errorf("the request log does not show the redacted invitation path:\n%s", logs)
		}
	})
}

// timestampLike matches stored times, whose digits may hold a code by chance.
var timestampLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}`)

// scanTables looks through every column of every table of the env's SQLite database.
func scanTables(t *testing.T, env *handlerstest.Env, secrets map[string]string, code string) {
	t.Helper()
	db, err := env.Store.DB()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	scanned := 0
	for _, table := range tables {
		rows, err := db.Query(fmt.Sprintf(`SELECT * FROM "%s"`, table))
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		row := make([]sql.NullString, len(cols)) // every value as text
		dest := make([]any, len(cols))
		for i := range row {
			dest[i] = &row[i]
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				t.Fatalf("%s: %v", table, err)
			}
			for i, v := range row {
				s := v.String
				scanned++
				for name, secret := range secrets {
					if strings.Contains(s, secret) {
						t.Errorf("%s.%s holds the %s", table, cols[i], name)
					}
				}
				if strings.Contains(s, code) && !timestampLike.MatchString(s) {
					t.Errorf("%s.%s holds the code: %q", table, cols[i], s)
				}
			}
		}
		rows.Close()
	}
	if scanned == 0 {
		t.Fatal("nothing was scanned")
	}
}

// guestOnlyEverywhereElse calls every documented route but the guest API's with the guest's
// credential, as UserTaskSession and as a bearer token: every one answers 401.
func guestOnlyEverywhereElse(t *testing.T, env *handlerstest.Env, credential, taskID, otherID string) {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/openapi.json"}).JSON(t, &doc)
	// Routes the document lists that this env does not serve (no live broker, no reconciler).
	unserved := map[string]bool{"/api/v1/user-tasks/stream": true, "/api/v1/reconciliation": true}
	// Commands whose body has no required member: {} is a well-formed request.
	emptyBodyConforms := map[string]bool{"/api/v1/user-tasks/{id}/invitations": true,
		"/api/v1/me/notifications/read": true, "/api/v1/me/notification-preferences": true}
	called := 0
	for path, ops := range doc.Paths {
		if strings.HasPrefix(path, "/api/v1/user-task-invitations/") || strings.HasPrefix(path, "/api/v1/user-task-sessions/") || path == "/api/v1/openapi.json" {
			continue
		}
		for method := range ops {
			for _, id := range []string{taskID, otherID} {
				p := strings.ReplaceAll(path, "{id}", id)
				if strings.HasSuffix(path, "/access") {
					p += "?participant=user:ann"
				}
				for _, auth := range []string{"UserTaskSession " + credential, "Bearer " + credential} {
					req := handlerstest.Request{Method: strings.ToUpper(method), Path: p, Header: http.Header{"Authorization": {auth}}, Contract: handlerstest.Breaks}
					if req.Method != http.MethodGet && req.Method != http.MethodDelete {
						req.Body = map[string]any{}
					}
					if strings.HasPrefix(auth, "Bearer") {
						req.Contract = handlerstest.Conforms
						if req.Body != nil && !emptyBodyConforms[path] {
							req.Contract = handlerstest.Breaks // {} lacks required members
						}
					}
					if unserved[path] {
						req.Contract = handlerstest.Outside
					}
					resp := env.Do(t, req)
					called++
					if unserved[path] && resp.Status == http.StatusNotFound {
						continue
					}
					if resp.Status != http.StatusUnauthorized {
						t.Errorf("%s %s with %s: %d %s", req.Method, p, strings.Fields(auth)[0], resp.Status, resp.Body)
					}
				}
			}
		}
	}
	if called < 40 {
		t.Fatalf("only %d calls", called)
	}
}

func TestGuestAPIRateLimit(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	inv := issueOn(t, env, task, nil)
	for i := 0; i < 10; i++ {
		var resp handlerstest.Response
		if i%2 == 0 {
			resp = g.challenge(t, inv.Token)
		} else {
			resp = g.verify(t, "not-a-token", map[string]string{"code": "123456"})
		}
		if resp.Status == http.StatusTooManyRequests {
			t.Fatalf("request %d was limited", i+1)
		}
	}
	for name, req := range map[string]handlerstest.Request{
		"Challenge": {Method: http.MethodGet, Path: invitationPath(inv.Token)},
		"Verify":    {Method: http.MethodPost, Path: invitationPath(inv.Token, "/verify"), Body: map[string]string{"code": inv.Code}},
		"ForwardedFor": {Method: http.MethodGet, Path: invitationPath(inv.Token),
			Header: http.Header{"X-Forwarded-For": {"203.0.113.7"}, "X-Real-Ip": {"203.0.113.8"}}},
	} {
		resp := env.Do(t, req)
		resp.WantProblem(t, http.StatusTooManyRequests, string(models.CodeRateLimited))
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", name)
		}
	}
	if n := env.Count(t, "SELECT COUNT(*) FROM user_task_guest_sessions"); n != 0 {
		t.Fatalf("a limited verification opened a session")
	}
}

func TestGuestAPIFiveWrongCodes(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	inv := issueOn(t, env, task, nil)
	wrong := "000000"
	if inv.Code == wrong {
		wrong = "111111"
	}
	for i := 0; i < models.MaxCodeAttempts; i++ {
		wantDenied(t, g.verify(t, inv.Token, map[string]string{"code": wrong}))
	}
	wantDenied(t, g.verify(t, inv.Token, map[string]string{"code": inv.Code}))
	if n := env.Count(t, "SELECT COUNT(*) FROM user_task_invitations WHERE id = ? AND status = 'revoked' AND code_attempts = 5", inv.ID); n != 1 {
		t.Fatal("five wrong codes did not revoke the invitation")
	}
	if got := env.Get(t, task); got.Status != models.StatusAvailable {
		t.Fatalf("task %s", got.Status)
	}
}

func TestGuestAPIBearer(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	inv := issueOn(t, env, task, &testfactory.InvitationOpts{Bearer: true})
	if got := string(g.challenge(t, inv.Token).Body); !strings.Contains(got, `"challengeType":"bearer"`) || !strings.Contains(got, `"requiresCode":false`) {
		t.Fatalf("challenge %s", got)
	}
	resp := g.verify(t, inv.Token, nil)
	resp.WantStatus(t, http.StatusOK)
}

func TestGuestAPISessionDies(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	boss := handlerstest.Manager("acme", "boss")
	live := func(t *testing.T) (models.Task, testfactory.IssuedInvitation, string) {
		task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		inv := issueOn(t, env, task, nil)
		cred := g.verified(t, inv)
		g.current(t, cred).WantStatus(t, http.StatusOK)
		return env.Get(t, task), inv, cred
	}
	var refusals []string
	t.Run("InvitationRevoked", func(t *testing.T) {
		_, inv, cred := live(t)
		env.Exec(t, "UPDATE user_task_invitations SET status = 'revoked' WHERE id = ?", inv.ID)
		refusals = append(refusals, wantDenied(t, g.current(t, cred)))
	})
	t.Run("Reassigned", func(t *testing.T) {
		task, _, cred := live(t)
		env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "assign"), Token: env.Token(t, boss),
			Body: map[string]any{"expectedRevision": task.Revision, "assignee": map[string]string{"id": "ann"}, "reason": "away"}}).WantStatus(t, http.StatusOK)
		refusals = append(refusals, wantDenied(t, g.current(t, cred)))
	})
	t.Run("Closed", func(t *testing.T) {
		task, _, cred := live(t)
		env.Finalize(t, task)
		refusals = append(refusals, wantDenied(t, g.complete(t, cred, map[string]any{"operationId": "x", "actionKey": "Complete"})))
	})
	t.Run("Expired", func(t *testing.T) {
		_, inv, cred := live(t)
		env.Exec(t, "UPDATE user_task_guest_sessions SET expires_at = '2020-01-01 00:00:00' WHERE invitation_id = ?", inv.ID)
		refusals = append(refusals, wantDenied(t, g.current(t, cred)))
	})
	for _, r := range refusals {
		if r != refusals[0] {
			t.Errorf("refusals differ: %s vs %s", r, refusals[0])
		}
	}
}

func TestGuestAPIHostileTokens(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	g := guestClient{env}
	valid := g.challenge(t, strings.Repeat("A", 43))
	valid.WantStatus(t, http.StatusOK)
	for _, tok := range []string{"short", "ünï", "..", "%00", "\x7f", "a/b"} {
		if got := g.challenge(t, tok); got.Status != http.StatusOK || string(got.Body) != string(valid.Body) {
			t.Errorf("challenge of %q: %d %s", tok, got.Status, got.Body)
		}
	}
	for _, body := range []any{map[string]string{"code": strings.Repeat("9", 5000)}, map[string]any{"code": 123456}} {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: invitationPath(strings.Repeat("A", 43), "/verify"), Body: body, Contract: handlerstest.Breaks})
		wantDenied(t, resp)
	}
}
