package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/tracing"
	"usertasks/tracing/tracingtest"
)

// A real request through the router with tracing on makes one tree in the caller's trace:
// the server span named by the route template, the command's span, the store transaction's
// span. No span carries the task's id, title, data or the caller's token, and the request's
// log line carries the trace id.
func TestRequestIsTraced(t *testing.T) {
	const (
		callerTrace  = "0af7651916cd43dd8448eb211c80319c"
		callerParent = "b7ad6b7169203331"
		title        = "Payroll for Zoë XYZZY"
		payload      = "payload-PLUGH-4711"
	)
	r := tracingtest.NewReceiver(t)
	tr, err := tracing.New(tracing.Config{URL: r.URL, Sampler: tracing.DefaultSampler}, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := handlerstest.SQLite(t, &handlerstest.Options{Tracer: tr})
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Title: title, Data: `{"note":"` + payload + `"}`, Candidates: []string{"ann"}})
	token := env.Token(t, ann)
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID) + "/claim", Token: token,
		Body:   map[string]any{"expectedRevision": task.Revision},
		Header: http.Header{"Traceparent": {"00-" + callerTrace + "-" + callerParent + "-01"}},
	}).WantStatus(t, http.StatusOK)
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	spans := r.Spans()
	byName := map[string]tracingtest.Span{}
	for _, s := range spans {
		byName[s.Name] = s
		for _, secret := range []string{task.ID, title, payload, token, "ann"} {
			if strings.Contains(s.Name, secret) {
				t.Errorf("span name %q holds %q", s.Name, secret)
			}
			for k, v := range s.Attributes {
				if strings.Contains(v, secret) {
					t.Errorf("span %s attribute %s=%q holds %q", s.Name, k, v, secret)
				}
			}
		}
	}
	server, ok1 := byName["POST /api/v1/user-tasks/:id/claim"]
	command, ok2 := byName["command claim"]
	store, ok3 := byName["store Mutate"]
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("spans %v: want the server, command and store spans", byName)
	}
	for _, s := range []tracingtest.Span{server, command, store} {
		if s.TraceID != callerTrace {
			t.Errorf("span %s in trace %s, want the caller's %s", s.Name, s.TraceID, callerTrace)
		}
	}
	if server.ParentID != callerParent || command.ParentID != server.SpanID || store.ParentID != command.SpanID {
		t.Errorf("not one tree: server ← %s, command ← %s, store ← %s", server.ParentID, command.ParentID, store.ParentID)
	}
	if server.Attributes["http.route"] != "/api/v1/user-tasks/:id/claim" || server.Attributes["http.response.status_code"] != "200" ||
		command.Attributes["usertasks.outcome"] != "ok" || store.Attributes["db.system.name"] != "sqlite" {
		t.Errorf("attributes: server %v, command %v, store %v", server.Attributes, command.Attributes, store.Attributes)
	}

	lines := requestLines(t, env)
	var last struct {
		TraceID string `json:"trace_id"`
	}
	all := strings.Split(strings.TrimSpace(env.Logs.String()), "\n")
	json.Unmarshal([]byte(all[len(all)-1]), &last)
	if lines[len(lines)-1].Route != "/api/v1/user-tasks/:id/claim" || last.TraceID != callerTrace {
		t.Errorf("request log line %s: want trace_id %s", all[len(all)-1], callerTrace)
	}
}

// With tracing off the log line has no trace id (and the router no tracing middleware).
func TestRequestNotTraced(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks/capabilities", Token: env.Token(t, handlerstest.Worker("acme", "ann")),
		Header: http.Header{"Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}).WantStatus(t, http.StatusOK)
	if strings.Contains(env.Logs.String(), "trace_id") {
		t.Fatalf("a trace id was logged without tracing: %s", env.Logs.String())
	}
}
