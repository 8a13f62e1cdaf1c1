package tracing_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/tracing"
	"usertasks/tracing/tracingtest"
)

const (
	callerTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerParent = "00f067aa0ba902b7"
)

func newTracer(t *testing.T, c tracing.Config) *tracing.Tracer {
	t.Helper()
	tr, err := tracing.New(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// spansByName flushes tr and returns what the receiver got, by span name.
func spansByName(t *testing.T, tr *tracing.Tracer, r *tracingtest.Receiver) map[string]tracingtest.Span {
	t.Helper()
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := map[string]tracingtest.Span{}
	for _, s := range r.Spans() {
		spans[s.Name] = s
	}
	return spans
}

// A request continuing a caller's trace, a command inside it and a transaction inside that
// make one tree in the caller's trace, each with its attributes and nothing else.
func TestSpanTree(t *testing.T) {
	r := tracingtest.NewReceiver(t)
	tr := newTracer(t, tracing.Config{URL: r.URL, ServiceName: "ut-test", Version: "v9", Sampler: tracing.DefaultSampler,
		Headers: map[string]string{"Api-Key": "collector-key"}})
	req := httptest.NewRequest(http.MethodPost, "/api/v1/user-tasks/t-42/claim", nil)
	req.Header.Set("Traceparent", "00-"+callerTrace+"-"+callerParent+"-01")

	ctx, traceID, endRequest := tr.StartRequest(req, "/api/v1/user-tasks/:id/claim")
	if traceID != callerTrace {
		t.Fatalf("trace id %q, want the caller's %s", traceID, callerTrace)
	}
	ctx, endCommand := tr.StartCommand(ctx, models.OpClaim)
	_, endTx := tr.StartTx(ctx, "postgres", "Mutate", true)
	endTx(models.Conflict(models.CodeRevisionConflict))
	endCommand(false, models.Conflict(models.CodeRevisionConflict))
	endRequest(http.StatusConflict)

	spans := spansByName(t, tr, r)
	server, command, store := spans["POST /api/v1/user-tasks/:id/claim"], spans["command claim"], spans["store Mutate"]
	for name, s := range map[string]tracingtest.Span{"server": server, "command": command, "store": store} {
		if s.TraceID != callerTrace {
			t.Errorf("%s span in trace %q, want %s (spans: %v)", name, s.TraceID, callerTrace, spans)
		}
		if s.Resource["service.name"] != "ut-test" || s.Resource["service.version"] != "v9" {
			t.Errorf("%s span resource %v", name, s.Resource)
		}
		for k, v := range s.Attributes {
			if strings.Contains(v, "t-42") {
				t.Errorf("%s span attribute %s=%q holds the task id", name, k, v)
			}
		}
	}
	if server.ParentID != callerParent || command.ParentID != server.SpanID || store.ParentID != command.SpanID {
		t.Errorf("parents: server %s (want %s), command %s (want %s), store %s (want %s)",
			server.ParentID, callerParent, command.ParentID, server.SpanID, store.ParentID, command.SpanID)
	}
	want := map[string]map[string]string{
		"server":  {"http.request.method": "POST", "http.route": "/api/v1/user-tasks/:id/claim", "http.response.status_code": "409"},
		"command": {"usertasks.command": "claim", "usertasks.outcome": "revision-conflict"},
		"store":   {"db.system.name": "postgresql", "db.operation.name": "Mutate", "usertasks.transaction": "write", "usertasks.outcome": "revision-conflict"},
	}
	got := map[string]tracingtest.Span{"server": server, "command": command, "store": store}
	for name, attrs := range want {
		if len(got[name].Attributes) != len(attrs) {
			t.Errorf("%s span attributes %v, want exactly %v", name, got[name].Attributes, attrs)
		}
		for k, v := range attrs {
			if got[name].Attributes[k] != v {
				t.Errorf("%s span %s = %q, want %q", name, k, got[name].Attributes[k], v)
			}
		}
	}
	if server.Kind != "SPAN_KIND_SERVER" || store.Kind != "SPAN_KIND_CLIENT" || server.Error || command.Error {
		t.Errorf("kinds %s/%s, errors %v/%v: a conflict is an answer, not a failure", server.Kind, store.Kind, server.Error, command.Error)
	}
	if h := r.Headers(); len(h) == 0 || h[0].Get("Api-Key") != "collector-key" {
		t.Errorf("export headers %v, want the configured Api-Key", h)
	}
}

func TestOutcomes(t *testing.T) {
	r := tracingtest.NewReceiver(t)
	tr := newTracer(t, tracing.Config{URL: r.URL})
	ctx, _, endRequest := tr.StartRequest(httptest.NewRequest(http.MethodGet, "/nowhere/x", nil), "")
	ctx, endCommand := tr.StartCommand(ctx, models.OpComplete)
	_, endTx := tr.StartTx(ctx, "sqlite", "Get", false)
	endTx(errors.New("driver said: value 'secret' is bad"))
	endCommand(true, nil)
	endRequest(http.StatusInternalServerError)
	spans := spansByName(t, tr, r)
	if s := spans["GET"]; !s.Error || s.Attributes["http.route"] != "" {
		t.Errorf("unmatched request span %+v: want named by method only, failed", s)
	}
	if s := spans["command complete"]; s.Attributes["usertasks.outcome"] != "replayed" {
		t.Errorf("replayed command outcome %q", s.Attributes["usertasks.outcome"])
	}
	s := spans["store Get"]
	if !s.Error || s.Attributes["usertasks.outcome"] != "error" || s.Attributes["usertasks.transaction"] != "read" || s.Attributes["db.system.name"] != "sqlite" {
		t.Errorf("failed read span %+v", s)
	}
}

// Without a recorded parent a transaction makes no span: the workers' polls stay out.
func TestStartTxWithoutParent(t *testing.T) {
	r := tracingtest.NewReceiver(t)
	tr := newTracer(t, tracing.Config{URL: r.URL})
	_, endTx := tr.StartTx(context.Background(), "mysql", "ClaimOutbox", true)
	endTx(nil)
	if spans := spansByName(t, tr, r); len(spans) != 0 {
		t.Fatalf("spans without a parent: %v", spans)
	}
}

// The runtime transport sends the client span's traceparent and names the span without the
// path (ids), leaving the caller's request as it was.
func TestTransportCarriesTraceparent(t *testing.T) {
	r := tracingtest.NewReceiver(t)
	tr := newTracer(t, tracing.Config{URL: r.URL})
	got := make(chan string, 1)
	runtime := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got <- req.Header.Get("Traceparent")
		w.WriteHeader(http.StatusAccepted)
	}))
	defer runtime.Close()
	client := &http.Client{Transport: tr.Transport("runtime", nil)}
	req, _ := http.NewRequest(http.MethodPost, runtime.URL+"/user-task-stimuli/secret-id", nil)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if req.Header.Get("Traceparent") != "" {
		t.Error("the transport changed the caller's request")
	}
	header := <-got
	s := spansByName(t, tr, r)["runtime POST"]
	if want := "00-" + s.TraceID + "-" + s.SpanID + "-01"; header != want {
		t.Fatalf("traceparent %q, want the client span's %q", header, want)
	}
	if s.Kind != "SPAN_KIND_CLIENT" || s.Attributes["http.response.status_code"] != "202" || s.Attributes["server.address"] != "127.0.0.1" {
		t.Errorf("client span %+v", s)
	}
}

func TestSamplers(t *testing.T) {
	r := tracingtest.NewReceiver(t)
	t.Run("AlwaysOff", func(t *testing.T) {
		tr := newTracer(t, tracing.Config{URL: r.URL, Sampler: "always_off"})
		_, traceID, end := tr.StartRequest(httptest.NewRequest(http.MethodGet, "/", nil), "/")
		end(200)
		if traceID != "" {
			t.Errorf("an unrecorded span gave trace id %q to log", traceID)
		}
	})
	t.Run("ParentNotSampled", func(t *testing.T) {
		tr := newTracer(t, tracing.Config{URL: r.URL})
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Traceparent", "00-"+callerTrace+"-"+callerParent+"-00")
		_, traceID, end := tr.StartRequest(req, "/")
		end(200)
		if traceID != "" {
			t.Errorf("a caller's unsampled trace was recorded: %q", traceID)
		}
	})
	t.Run("Unknown", func(t *testing.T) {
		if _, err := tracing.New(tracing.Config{URL: r.URL, Sampler: "jaeger_remote"}, nil); err == nil || !strings.Contains(err.Error(), "parentbased_always_on") {
			t.Fatalf("err = %v, want the known samplers listed", err)
		}
	})
	t.Run("NoEndpoint", func(t *testing.T) {
		if _, err := tracing.New(tracing.Config{}, nil); err == nil {
			t.Fatal("built a tracer without an endpoint")
		}
	})
	for v, ok := range map[string]bool{"0": true, "0.25": true, "1": true, "1.5": false, "-0.1": false, "NaN": false, "half": false} {
		if _, err := tracing.ParseRatio(v); (err == nil) != ok {
			t.Errorf("ParseRatio(%q) err = %v", v, err)
		}
	}
}
