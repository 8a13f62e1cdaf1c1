// Package tracingtest is an in-process OTLP/HTTP trace receiver for tests: an httptest server
// that decodes the protobuf export requests the SDK sends and keeps their spans.
package tracingtest

import (
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, flattened: ids in hex, attributes as strings (the resource's
// attributes are in Resource).
type Span struct {
	TraceID, SpanID, ParentID string
	Name                      string
	Kind                      string // SPAN_KIND_SERVER, …
	Attributes                map[string]string
	Resource                  map[string]string
	Error                     bool // status code ERROR
}

// Receiver collects the spans exported to URL.
type Receiver struct {
	// URL is the full traces endpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT.
	URL string
	// Base is the server's root: OTEL_EXPORTER_OTLP_ENDPOINT (the SDK adds /v1/traces).
	Base string

	mu      sync.Mutex
	spans   []Span
	headers []http.Header
}

// NewReceiver starts a receiver that lives as long as the test.
func NewReceiver(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.Base, r.URL = srv.URL, srv.URL+"/v1/traces"
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" {
		http.NotFound(w, req)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var export coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &export); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var spans []Span
	for _, rs := range export.GetResourceSpans() {
		res := attributes(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				spans = append(spans, Span{
					TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					ParentID: hex.EncodeToString(s.GetParentSpanId()), Name: s.GetName(), Kind: s.GetKind().String(),
					Attributes: attributes(s.GetAttributes()), Resource: res,
					Error: s.GetStatus().GetCode().String() == "STATUS_CODE_ERROR",
				})
			}
		}
	}
	r.mu.Lock()
	r.spans = append(r.spans, spans...)
	r.headers = append(r.headers, req.Header.Clone())
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Write(out)
}

func attributes(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		v := kv.GetValue()
		switch x := v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.GetKey()] = x.StringValue
		case *commonpb.AnyValue_IntValue:
			m[kv.GetKey()] = fmt.Sprint(x.IntValue)
		case *commonpb.AnyValue_BoolValue:
			m[kv.GetKey()] = fmt.Sprint(x.BoolValue)
		default:
			m[kv.GetKey()] = fmt.Sprint(v.GetValue())
		}
	}
	return m
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Headers are the HTTP headers of every export request received so far.
func (r *Receiver) Headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// WaitFor polls until a received span satisfies match, failing the test after a minute.
func (r *Receiver) WaitFor(t testing.TB, what string, match func(Span) bool) Span {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, s := range r.Spans() {
			if match(s) {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no span %s among %d received", what, len(r.Spans()))
	return Span{}
}
