package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"usertasks/repository"
	"usertasks/testfactory"
	"usertasks/tracing/tracingtest"
)

// fakeRuntime acknowledges stimuli and keeps the traceparent header of each.
type fakeRuntime struct {
	mu           sync.Mutex
	traceparents []string
}

func (f *fakeRuntime) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/user-task-stimuli") {
		f.mu.Lock()
		f.traceparents = append(f.traceparents, r.Header.Get("Traceparent"))
		f.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"items":[]}`)) // reconciliation's bookmark listing
}

func (f *fakeRuntime) received() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.traceparents...)
}

// apiPost posts body to the JSON API as token's bearer with an optional traceparent and
// returns the status and the answer's revision.
func apiPost(t *testing.T, url, token, traceparent string, body map[string]any) (int, int) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	if traceparent != "" {
		req.Header.Set("Traceparent", traceparent)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Revision int `json:"revision"`
	}
	var raw bytes.Buffer
	raw.ReadFrom(resp.Body)
	json.Unmarshal(raw.Bytes(), &answer)
	if resp.StatusCode >= 300 {
		t.Logf("%s answered %d: %s", url, resp.StatusCode, raw.String())
	}
	return resp.StatusCode, answer.Revision
}

// `web serve` with an OTLP endpoint traces a completion from the request to the store, the
// resumption it sends the runtime carries a traceparent, and stopping the server (SIGTERM)
// flushes every span to the collector.
func TestServeTracesToCollector(t *testing.T) {
	const callerTrace = "5b8efff798038103d269b633813fc60c"
	ctx := context.Background()
	collector := tracingtest.NewReceiver(t)
	rt := &fakeRuntime{}
	runtime := httptest.NewServer(rt)
	defer runtime.Close()

	path := filepath.Join(t.TempDir(), "ut.db")
	vars := productionVars(path)
	if err := repository.Migrate(ctx, vars["USERTASKS_DATABASE_URL"]); err != nil {
		t.Fatal(err)
	}
	store := testfactory.Open(t, vars["USERTASKS_DATABASE_URL"], nil)
	task := testfactory.Task(ctx, t, store, &testfactory.TaskOpts{Tenant: "acme", Title: "Salary review XYZZY", Candidates: []string{"ann"}})
	store.Close()

	for k, v := range map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": collector.Base,
		"OTEL_SERVICE_NAME":           "usertasks-test",
		"OTEL_EXPORTER_OTLP_HEADERS":  "x-collector-key=abc%20def",
		"USERTASKS_RUNTIME_URL":       runtime.URL,
		"USERTASKS_RUNTIME_SECRET":    "runtime-secret-0123456789abcdefghij",
		"USERTASKS_DISPATCH_INTERVAL": "100ms",
	} {
		vars[k] = v
	}
	base, logs, stop := startServeStoppable(t, vars)
	token := mintToken(t, tokenClaims(jwt.MapClaims{"permissions": []string{"user-tasks:view", "user-tasks:claim", "user-tasks:complete"}}))
	taskURL := base + "/api/v1/user-tasks/" + task.ID
	status, revision := apiPost(t, taskURL+"/claim", token, "", map[string]any{"expectedRevision": task.Revision})
	if status != http.StatusOK {
		t.Fatalf("claim = %d", status)
	}
	status, _ = apiPost(t, taskURL+"/complete", token, "00-"+callerTrace+"-1111111111111111-01",
		map[string]any{"expectedRevision": revision, "actionKey": "complete", "operationId": "op-trace-1"})
	if status != http.StatusAccepted {
		t.Fatalf("complete = %d", status)
	}
	deadline := time.Now().Add(time.Minute)
	for len(rt.received()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	stop()

	spans := collector.Spans()
	if len(spans) == 0 {
		t.Fatal("no spans reached the collector by the end of the shutdown")
	}
	var complete, command, mutate *tracingtest.Span
	for i, s := range spans {
		switch {
		case s.Name == "POST /api/v1/user-tasks/:id/complete":
			complete = &spans[i]
		case s.Name == "command complete":
			command = &spans[i]
		case s.Name == "store Mutate" && s.TraceID == callerTrace:
			mutate = &spans[i]
		}
		if s.Resource["service.name"] != "usertasks-test" {
			t.Errorf("span %s of service %q", s.Name, s.Resource["service.name"])
		}
		for k, v := range s.Attributes {
			if strings.Contains(v, task.ID) || strings.Contains(v, "XYZZY") || strings.Contains(v, token) {
				t.Errorf("span %s attribute %s=%q holds task data", s.Name, k, v)
			}
		}
	}
	if complete == nil || command == nil || mutate == nil || complete.TraceID != callerTrace || command.ParentID != complete.SpanID || mutate.ParentID != command.SpanID {
		t.Fatalf("no request → command → store tree in the caller's trace: %+v", spans)
	}
	if h := collector.Headers(); h[0].Get("X-Collector-Key") != "abc def" {
		t.Errorf("export header %q, want the decoded OTEL_EXPORTER_OTLP_HEADERS value", h[0].Get("X-Collector-Key"))
	}

	sent := rt.received()
	if len(sent) == 0 || sent[0] == "" {
		t.Fatalf("the runtime got stimuli with traceparents %q", sent)
	}
	var client *tracingtest.Span
	for i, s := range spans {
		if s.Name == "runtime POST" && sent[0] == "00-"+s.TraceID+"-"+s.SpanID+"-01" {
			client = &spans[i]
		}
	}
	if client == nil || client.Kind != "SPAN_KIND_CLIENT" {
		t.Fatalf("no client span behind the runtime's traceparent %s", sent[0])
	}
	if !strings.Contains(logs.String(), `"trace_id":"`+callerTrace+`"`) {
		t.Errorf("no request log line with the caller's trace id: %s", logs.String())
	}
}

// Without an endpoint nothing of the SDK is built: no tracer, no exporter, no middleware.
func TestServeWithoutTracing(t *testing.T) {
	vars := productionVars(filepath.Join(t.TempDir(), "ut.db"))
	vars["OTEL_SERVICE_NAME"] = "usertasks-test" // a name alone does not turn tracing on
	cfg, err := loadConfig(env(vars), true)
	if err != nil {
		t.Fatal(err)
	}
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	a, err := buildApp(context.Background(), cfg, &openedStore{Store: s, name: "sqlite", sql: s}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	if a.tracer != nil || a.deps.Tracer != nil {
		t.Fatalf("tracing built without an endpoint: %v %v", a.tracer, a.deps.Tracer)
	}
}
