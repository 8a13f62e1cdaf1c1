package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// FuzzRuntimeBookmarks sends projection payloads (removal false) and bookmark removals (true)
// as the workflow runtime. "$BM" in the body stands for a fresh bookmark id, "$TASKBM" for the
// bookmark of a fresh task, so projections create tasks and removals finalize them.
func FuzzRuntimeBookmarks(f *testing.F) {
	s := newFuzzServer(f, false)
	runtime := s.Token(f, handlerstest.RuntimeUser("acme"))
	project := `{"workflowDefinitionId":"invoice","workflowInstanceId":"wf-$BM","activityInstanceId":"approve","bookmarkId":"$BM",` +
		`"task":{"title":"Approve invoice","candidateUsers":[{"id":"ann","displayName":"Ann"}],"taskData":{"amount":12},` +
		`"actions":[{"key":"Approve","label":"Approve"}],"priority":40,"dueAt":"2026-12-01T00:00:00Z",` +
		`"form":{"schema":{"type":"object","properties":{"ok":{"type":"boolean"},"pin":{"type":"string","x-ui":{"masked":true}}}}},` +
		`"invitations":[{"verifierName":"code","allowedActions":["Approve"],"lifetime":"P1D"}]}}`
	f.Add(false, []byte(project))
	f.Add(false, []byte(`{"workflowDefinitionId":"d","workflowInstanceId":"i","activityInstanceId":"a","bookmarkId":"$BM","task":{"title":"\u202eT","assignee":{"type":"group","id":"g"},"candidateGroups":[{"id":"ops"}],"excludedUsers":[{"id":"ann"}]}}`))
	f.Add(false, []byte(`{"workflowDefinitionId":"d","workflowInstanceId":"i","activityInstanceId":"a","bookmarkId":"$BM","task":{"title":"T","form":{"schema":{"type":"object","properties":{"x":{"$ref":"#/y"}}}},"taskData":[1]}}`))
	f.Add(false, []byte(`{"bookmarkId":"$BM","task":null}`))
	f.Add(true, []byte(`{"bookmarkIds":["$TASKBM","$BM",""]}`))
	f.Add(true, []byte(`{"bookmarkIds":null}`))
	f.Add(true, []byte(`{"bookmarkIds":["$TASKBM","$TASKBM"]}`))

	f.Fuzz(func(t *testing.T, removal bool, body []byte) {
		path := "/api/v1/runtime/bookmarks"
		if removal {
			path += "/removed"
		}
		if body != nil {
			text := strings.ReplaceAll(string(body), "$BM", "bm-"+models.NewID())
			if strings.Contains(text, "$TASKBM") {
				text = strings.ReplaceAll(text, "$TASKBM", s.Task(t, fuzzTaskOpts()).Workflow.BookmarkID)
			}
			body = []byte(text)
		}
		s.send(t, fuzzCall{method: http.MethodPost, path: path, header: bearer(runtime), body: body})
	})
}
