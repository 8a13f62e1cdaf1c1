package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// fuzzCommand is one API command the fuzz target can send: its method and the path of the
// task (or of none).
type fuzzCommand struct {
	method string
	path   func(taskID, id string) string
}

func taskCommand(method, suffix string) fuzzCommand {
	return fuzzCommand{method, func(taskID, _ string) string { return "/api/v1/user-tasks/" + taskID + suffix }}
}

// fuzzCommands are the JSON API's commands, by the fuzz input's op (modulo their number).
var fuzzCommands = []fuzzCommand{
	taskCommand(http.MethodPost, "/claim"),
	taskCommand(http.MethodPost, "/release"),
	taskCommand(http.MethodPost, "/assign"),
	taskCommand(http.MethodPost, "/complete"),
	taskCommand(http.MethodPost, "/cancel"),
	taskCommand(http.MethodPatch, ""),
	taskCommand(http.MethodPost, "/retry-resolution"),
	taskCommand(http.MethodPost, "/reveal"),
	{http.MethodPost, func(string, string) string { return "/api/v1/user-tasks/bulk" }},
	taskCommand(http.MethodPost, "/invitations"),
	{http.MethodPost, func(string, string) string { return "/api/v1/user-task-views" }},
	{http.MethodDelete, func(taskID, id string) string {
		return "/api/v1/user-tasks/" + taskID + "/invitations/" + url.PathEscape(id)
	}},
}

// fuzzTaskOpts is a task every command can act on: candidates, two actions, a form with a
// masked field, cancellation, and two guest invitation definitions.
func fuzzTaskOpts() handlerstest.TaskOpts {
	o := guestTaskOpts()
	o.CancellationEnabled = true
	o.Data = `{"note":"hello","pin":"1234","amount":3}`
	o.Form = json.RawMessage(`{"type":"object","required":["note"],"properties":{` +
		`"note":{"type":"string","maxLength":40},"amount":{"type":"integer","minimum":0,"maximum":10},` +
		`"pin":{"type":"string","x-ui":{"masked":true}},"when":{"type":"string","format":"date"}}}`)
	return o
}

// FuzzTaskCommand sends a command's body, as a manager or a worker, about a fresh task (or the
// id given). "$TASK" in the body stands for the fresh task's id. Every answer must be a
// success or a documented problem, never a 500.
func FuzzTaskCommand(f *testing.F) {
	s := newFuzzServer(f, false)
	boss := s.Token(f, handlerstest.Manager("acme", "max"))
	ann := s.Token(f, handlerstest.Worker("acme", "ann"))
	seeds := []string{
		`{"expectedRevision":1}`,
		`{"expectedRevision":1,"reason":"on leave"}`,
		`{"expectedRevision":1,"assignee":{"type":"user","id":"ann"},"reason":"she knows"}`,
		`{"expectedRevision":1,"operationId":"op-1","actionKey":"Approve","data":{"note":"ok","amount":2,"when":"2026-01-02"}}`,
		`{"expectedRevision":1,"operationId":"op-2","reason":"no longer needed"}`,
		`{"expectedRevision":1,"priority":70,"dueAt":"2026-12-31T10:00:00Z"}`,
		`{"expectedRevision":1}`,
		`{"fieldKey":"pin"}`,
		`{"action":"claim","items":[{"taskId":"$TASK","expectedRevision":1}],"operationId":"bulk-1"}`,
		`{"definitionIndex":0,"recipients":["guest@example.org"],"operationId":"inv-1"}`,
		`{"name":"Mine","query":"status=available&sort=dueAt","shared":false}`,
		`{}`,
	}
	for op, body := range seeds {
		f.Add(uint8(op), "", []byte(body))
		f.Add(uint8(op+len(fuzzCommands)), "", []byte(body)) // as the worker
	}
	f.Add(uint8(3), "", []byte(`{"expectedRevision":1,"operationId":"x","actionKey":"Approve","data":{"note":"\u202e\u0000","amount":1e400}}`))
	f.Add(uint8(2), "a b?#/ü", []byte(`{"expectedRevision":-1,"assignee":"ann"}`))
	f.Add(uint8(8), "", []byte(`{"action":"assign","items":[{"taskId":"$TASK"}],"assignee":{"type":"group","id":"x"},"dueAt":null}`))
	f.Add(uint8(11), "../../user-tasks", []byte(nil))

	f.Fuzz(func(t *testing.T, op uint8, id string, body []byte) {
		task := s.Task(t, fuzzTaskOpts())
		cmd := fuzzCommands[int(op)%len(fuzzCommands)]
		token := boss
		if int(op)/len(fuzzCommands)%2 == 1 {
			token = ann
		}
		taskID := task.ID
		if id != "" && cmd.method != http.MethodDelete {
			taskID = url.PathEscape(id)
		}
		if body != nil {
			body = []byte(strings.ReplaceAll(string(body), "$TASK", task.ID))
		}
		s.send(t, fuzzCall{method: cmd.method, path: cmd.path(taskID, id), header: bearer(token), body: body})
	})
}
