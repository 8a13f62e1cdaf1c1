package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// hostileText are characters no identifier or short text may hold: C0 and C1 controls, DEL, a
// bidirectional override and isolate.
var hostileText = []string{"\x00", "\x1b", "\u0085", "\u202e", "\u2067", "\x7f", "\u009b"}

// TestControlCharactersRefused covers identifiers and short text on every provider: control
// characters, bidirectional overrides and invalid UTF-8 are 422 validation-failed naming the
// field, in list filters, projections and commands, and nothing is written; multi-line text
// keeps its line breaks.
func TestControlCharactersRefused(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			env := p.start(t, nil)
			t.Run("ListFilters", func(t *testing.T) { testFilterText(t, env) })
			t.Run("Projection", func(t *testing.T) { testProjectionText(t, env) })
			t.Run("Commands", func(t *testing.T) { testCommandText(t, env) })
			t.Run("TaskIDs", func(t *testing.T) { testHostileTaskIDs(t, env) })
			t.Run("RemovedBookmarkIDs", func(t *testing.T) { testRemovedBookmarkText(t, env) })
			t.Run("Invisible", func(t *testing.T) { testInvisibleText(t, env) })
		})
	}
}

func testFilterText(t *testing.T, env *handlerstest.Env) {
	max := handlerstest.Manager("acme", "max")
	env.Task(t, handlerstest.TaskOpts{Title: "Café order", Reference: "R-1", TaskType: "approval", Tags: []string{"q1"}})
	list := func(query string) handlerstest.Response {
		return env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&" + query, Token: env.Token(t, max)})
	}
	for _, tt := range []struct{ query, field string }{
		{"search=%00", "search"},
		{"search=%C2%85", "search"},
		{"search=%E2%80%AE", "search"},
		{"search=caf%FF", "search"},
		{"search=a%0Ab", "search"},
		{"tag=q%001", "tag"},
		{"reference=R-1%E2%81%A6", "reference"},
		{"reference=R-1%E2%80%8F", "reference"},
		{"taskType=%1Bapproval", "taskType"},
		{"workflowDefinitionId=approval%00", "workflowDefinitionId"},
		{"workflowInstanceId=%C2%9B", "workflowInstanceId"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			p := list(tt.query).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{tt.field}) {
				t.Errorf("fields = %v, want [%s]", p.Fields(), tt.field)
			}
		})
	}
	for _, query := range []string{"search=Caf%C3%A9", "search=caf%C3%A9%E2%80%8F", "search=%25", "tag=Q1", "reference=R-1"} {
		t.Run("OK_"+query, func(t *testing.T) {
			var pg page
			resp := list(query)
			resp.WantStatus(t, http.StatusOK)
			resp.JSON(t, &pg)
			if query != "search=caf%C3%A9%E2%80%8F" && query != "search=%25" && len(pg.Items) != 1 {
				t.Errorf("%d items, want the seeded task", len(pg.Items))
			}
		})
	}
}

func testProjectionText(t *testing.T, env *handlerstest.Env) {
	runtime := handlerstest.RuntimeUser("acme")
	participant := func(field, value string) map[string]any {
		p := map[string]any{"id": "ursula"}
		p[field] = value
		return p
	}
	fields := []struct {
		field string
		set   func(body, task map[string]any, bad string)
	}{
		{"workflowDefinitionId", func(b, _ map[string]any, bad string) { b["workflowDefinitionId"] = "invoice" + bad }},
		{"workflowDefinitionName", func(b, _ map[string]any, bad string) { b["workflowDefinitionName"] = "Invoice" + bad }},
		{"workflowInstanceId", func(b, _ map[string]any, bad string) {
			b["workflowInstanceId"] = fmt.Sprint(b["workflowInstanceId"], bad)
		}},
		{"workflowInstanceReference", func(b, _ map[string]any, bad string) { b["workflowInstanceReference"] = "ref" + bad }},
		{"activityInstanceId", func(b, _ map[string]any, bad string) { b["activityInstanceId"] = "approve" + bad }},
		{"bookmarkId", func(b, _ map[string]any, bad string) { b["bookmarkId"] = fmt.Sprint(b["bookmarkId"], bad) }},
		{"task.title", func(_, tk map[string]any, bad string) { tk["title"] = "Approve" + bad }},
		{"task.summary", func(_, tk map[string]any, bad string) { tk["summary"] = "Sum" + bad + "mary" }},
		{"task.reference", func(_, tk map[string]any, bad string) { tk["reference"] = "INV" + bad }},
		{"task.taskType", func(_, tk map[string]any, bad string) { tk["taskType"] = "approval" + bad }},
		{"task.tags[0]", func(_, tk map[string]any, bad string) { tk["tags"] = []any{"t" + bad + "x"} }},
		{"task.requester.id", func(_, tk map[string]any, bad string) { tk["requester"] = participant("id", "ursula"+bad) }},
		{"task.requester.provider", func(_, tk map[string]any, bad string) { tk["requester"] = participant("provider", "idp"+bad) }},
		{"task.requester.displayName", func(_, tk map[string]any, bad string) { tk["requester"] = participant("displayName", "U"+bad) }},
		{"task.assignee.id", func(_, tk map[string]any, bad string) { tk["assignee"] = participant("id", "ursula"+bad) }},
		{"task.candidateUsers[0].id", func(_, tk map[string]any, bad string) { tk["candidateUsers"] = []any{participant("id", "ursula"+bad)} }},
		{"task.candidateGroups[0].id", func(_, tk map[string]any, bad string) { tk["candidateGroups"] = []any{participant("id", "ursula"+bad)} }},
		{"task.excludedUsers[0].id", func(_, tk map[string]any, bad string) { tk["excludedUsers"] = []any{participant("id", "ursula"+bad)} }},
		{"task.actions[0].key", func(_, tk map[string]any, bad string) {
			tk["actions"] = []any{map[string]any{"key": "ok" + bad + "ay", "label": "Okay"}}
		}},
		{"task.actions[0].label", func(_, tk map[string]any, bad string) {
			tk["actions"] = []any{map[string]any{"key": "okay", "label": "Okay" + bad}}
		}},
		{"task.invitations[0].verifierName", func(_, tk map[string]any, bad string) {
			tk["invitations"] = []any{map[string]any{"verifierName": "code" + bad, "allowedActions": []any{"Complete"}}}
		}},
		{"task.invitations[0].recipient", func(_, tk map[string]any, bad string) {
			tk["invitations"] = []any{map[string]any{"verifierName": "code", "allowedActions": []any{"Complete"}, "recipient": "a@example.com" + bad}}
		}},
		{"task.form.provider", func(_, tk map[string]any, bad string) {
			tk["form"] = map[string]any{"provider": "files" + bad, "key": "invoice"}
		}},
		{"task.form.key", func(_, tk map[string]any, bad string) {
			tk["form"] = map[string]any{"provider": "files", "key": "invoice" + bad}
		}},
		{"task.form.version", func(_, tk map[string]any, bad string) {
			tk["form"] = map[string]any{"provider": "files", "key": "invoice", "version": "1" + bad}
		}},
	}
	tasksBefore := env.Count(t, "SELECT COUNT(*) FROM user_tasks")
	for i, f := range fields {
		for j, bad := range []string{hostileText[i%len(hostileText)], hostileText[(i+3)%len(hostileText)]} {
			t.Run(fmt.Sprintf("%s_%q", f.field, bad), func(t *testing.T) {
				bookmark := fmt.Sprintf("bm-text-%d-%d-%s", i, j, models.NewID())
				task := map[string]any{"title": "Approve", "candidateUsers": []any{map[string]any{"id": "ann"}}}
				body := map[string]any{"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-" + bookmark,
					"activityInstanceId": "approve", "bookmarkId": bookmark, "task": task}
				f.set(body, task, bad)
				resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/runtime/bookmarks", Token: env.Token(t, runtime), Body: body})
				p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
				if !slices.Contains(p.Fields(), f.field) {
					t.Errorf("fields = %v, want %s among them", p.Fields(), f.field)
				}
			})
		}
	}
	if got := env.Count(t, "SELECT COUNT(*) FROM user_tasks"); got != tasksBefore {
		t.Errorf("tasks %d → %d: a refused projection was written", tasksBefore, got)
	}
	t.Run("OK_MultiLineSummaryAndFreeContent", func(t *testing.T) {
		body := map[string]any{"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-ok-" + models.NewID(),
			"activityInstanceId": "approve", "bookmarkId": "bm-ok-" + models.NewID(), "task": map[string]any{
				"title": "Approve", "summary": "line one\r\nline\ttwo", "instructions": "free \u202e text\x00",
				"taskData": map[string]any{"note": "\u0000\u202e"}, "candidateUsers": []any{map[string]any{"id": "ann"}}}}
		env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/runtime/bookmarks", Token: env.Token(t, runtime), Body: body}).
			WantStatus(t, http.StatusCreated)
	})
}

func testCommandText(t *testing.T, env *handlerstest.Env) {
	max := handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, CancellationEnabled: true})
	unchanged := func(t *testing.T) {
		t.Helper()
		if got := env.Get(t, task).Revision; got != task.Revision {
			t.Fatalf("revision %d → %d: a refused command was written", task.Revision, got)
		}
	}
	for _, tt := range []struct {
		name, cmd, field string
		body             map[string]any
	}{
		{"AssigneeID", "assign", "assignee.id", map[string]any{"assignee": map[string]any{"type": "user", "id": "bob\x00"}}},
		{"AssigneeIDOverride", "assign", "assignee.id", map[string]any{"assignee": map[string]any{"type": "user", "id": "\u202ebob"}}},
		{"AssigneeProvider", "assign", "assignee.provider", map[string]any{"assignee": map[string]any{"type": "user", "id": "bob", "provider": "idp\u0085"}}},
		{"AssigneeDisplayName", "assign", "assignee.displayName", map[string]any{"assignee": map[string]any{"type": "user", "id": "bob", "displayName": "Bob\x1b[31m"}}},
		{"AssignReason", "assign", "reason", map[string]any{"assignee": map[string]any{"type": "user", "id": "bob"}, "reason": "why\u2066"}},
		{"CancelReasonOverride", "cancel", "reason", map[string]any{"reason": "dup\u202elicate"}},
		{"CancelReasonNUL", "cancel", "reason", map[string]any{"reason": "dup\x00"}},
		{"OperationID", "cancel", "operationId", map[string]any{"reason": "duplicate", "operationId": "op\u202e-1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := map[string]any{"expectedRevision": task.Revision, "operationId": "op-" + models.NewID()}
			for k, v := range tt.body {
				body[k] = v
			}
			p := command(t, env, max, task.ID, tt.cmd, body).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{tt.field}) {
				t.Errorf("fields = %v, want [%s]", p.Fields(), tt.field)
			}
			unchanged(t)
		})
	}
	t.Run("InvalidUTF8", func(t *testing.T) {
		body := []byte(`{"expectedRevision":1,"operationId":"op-utf8","reason":"dup` + "\xff" + `licate"}`)
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "cancel"), Token: env.Token(t, max), Body: body})
		if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"reason"}) {
			t.Errorf("fields = %v, want [reason]", p.Fields())
		}
		unchanged(t)
	})
	t.Run("OK_CancelReasonWithANewline", func(t *testing.T) {
		r := decodeResult(t, command(t, env, max, task.ID, "cancel", map[string]any{"expectedRevision": task.Revision,
			"operationId": "op-nl", "reason": "duplicate of\nINV-41"}), http.StatusAccepted)
		if r.Task.Status != "Cancelling" {
			t.Fatalf("status %s, want Cancelling", r.Task.Status)
		}
	})
}

// testHostileTaskIDs: a task id no task can have — control characters, invalid UTF-8, path
// tricks — is not found, like any other missing task, never a 500 from the database driver.
func testHostileTaskIDs(t *testing.T, env *handlerstest.Env) {
	max := handlerstest.Manager("acme", "max")
	for _, id := range []string{"%00", "%FF", "%E2%80%AE", "%C2%85", "a%20b", "%25", "%3F", "%23", "%E6%97%A5", "01a2%00"} {
		for _, call := range []struct {
			method, suffix string
			body           any
		}{
			{http.MethodGet, "", nil},
			{http.MethodGet, "/events", nil},
			{http.MethodPost, "/claim", map[string]any{"expectedRevision": 1}},
			{http.MethodPost, "/reveal", map[string]any{"fieldKey": "iban"}},
			{http.MethodPost, "/retry-resolution", map[string]any{"expectedRevision": 1}},
		} {
			t.Run(call.method+"_"+id+call.suffix, func(t *testing.T) {
				env.Do(t, handlerstest.Request{Method: call.method, Path: "/api/v1/user-tasks/" + id + call.suffix,
					Token: env.Token(t, max), Body: call.body, Contract: handlerstest.Breaks}).
					WantProblem(t, http.StatusNotFound, "not-found")
			})
		}
	}
}

// testRemovedBookmarkText: the bookmark ids of a removal are identifiers too.
func testRemovedBookmarkText(t *testing.T, env *handlerstest.Env) {
	runtime := handlerstest.RuntimeUser("acme")
	for _, bad := range hostileText {
		t.Run(fmt.Sprintf("%q", bad), func(t *testing.T) {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/runtime/bookmarks/removed",
				Token: env.Token(t, runtime), Body: map[string]any{"bookmarkIds": []string{"bm-ok", "bm" + bad}}})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"bookmarkIds[1]"}) {
				t.Errorf("fields = %v, want [bookmarkIds[1]]", p.Fields())
			}
		})
	}
}

// invisibleText are the zero-width characters and the line and paragraph separators: refused in
// identifiers like the direction marks, kept in prose.
var invisibleText = []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u2028", "\u2029"}

func testInvisibleText(t *testing.T, env *handlerstest.Env) {
	runtime := handlerstest.RuntimeUser("acme")
	max := handlerstest.Manager("acme", "max")
	project := func(bookmark string, task map[string]any) handlerstest.Response {
		body := map[string]any{"workflowDefinitionId": "invoice", "workflowInstanceId": "wf-" + bookmark,
			"activityInstanceId": "approve", "bookmarkId": bookmark, "task": task}
		return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/runtime/bookmarks", Token: env.Token(t, runtime), Body: body})
	}
	tasksBefore := env.Count(t, "SELECT COUNT(*) FROM user_tasks")
	for _, bad := range invisibleText {
		t.Run(fmt.Sprintf("Refused_U+%04X", []rune(bad)[0]), func(t *testing.T) {
			for _, tt := range []struct {
				field string
				task  map[string]any
			}{
				{"task.reference", map[string]any{"title": "Approve", "reference": "INV" + bad + "-1", "candidateUsers": []any{map[string]any{"id": "ann"}}}},
				{"task.candidateUsers[0].id", map[string]any{"title": "Approve", "candidateUsers": []any{map[string]any{"id": "an" + bad + "n"}}}},
				{"task.tags[0]", map[string]any{"title": "Approve", "tags": []any{"q" + bad + "1"}, "candidateUsers": []any{map[string]any{"id": "ann"}}}},
			} {
				p := project("bm-inv-"+models.NewID(), tt.task).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
				if !slices.Equal(p.Fields(), []string{tt.field}) {
					t.Errorf("%s: fields = %v, want [%s]", tt.field, p.Fields(), tt.field)
				}
			}
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&reference=" + url.QueryEscape("R-1"+bad), Token: env.Token(t, max)})
			if p := resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed"); !slices.Equal(p.Fields(), []string{"reference"}) {
				t.Errorf("filter: fields = %v, want [reference]", p.Fields())
			}
		})
	}
	if got := env.Count(t, "SELECT COUNT(*) FROM user_tasks"); got != tasksBefore {
		t.Errorf("tasks %d → %d: a refused projection was written", tasksBefore, got)
	}
	t.Run("OK_KeptInProse", func(t *testing.T) {
		all := strings.Join(invisibleText, "")
		project("bm-inv-ok-"+models.NewID(), map[string]any{"title": "Kaffee\u200d\u200cpause", "summary": "one" + all + "two",
			"candidateUsers": []any{map[string]any{"id": "ann"}}}).WantStatus(t, http.StatusCreated)
	})
}
