package tracing

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"usertasks/models"
)

// Attributes of our own, beside the semantic conventions'.
const (
	commandKey = attribute.Key("usertasks.command")
	outcomeKey = attribute.Key("usertasks.outcome")
	txKey      = attribute.Key("usertasks.transaction")
)

// StartRequest starts the server span of a request the router matched to route (its
// template, "" when none matched), continuing the caller's W3C trace context. It returns the
// request's context carrying the span, the trace id to log ("" when the span is not recorded)
// and the function that ends the span with the answered status.
func (t *Tracer) StartRequest(r *http.Request, route string) (context.Context, string, func(status int)) {
	ctx := t.propagator.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	name := r.Method
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(r.Method)}
	if route != "" {
		name += " " + route
		attrs = append(attrs, semconv.HTTPRoute(route))
	}
	ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	traceID := ""
	if span.IsRecording() {
		traceID = span.SpanContext().TraceID().String()
	}
	return ctx, traceID, func(status int) {
		span.SetAttributes(semconv.HTTPResponseStatusCode(status))
		if status >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
		span.End()
	}
}

// StartCommand starts the span of one lifecycle command of the given kind; the returned
// function ends it with the command's outcome.
func (t *Tracer) StartCommand(ctx context.Context, kind models.OperationKind) (context.Context, func(replayed bool, err error)) {
	ctx, span := t.tracer.Start(ctx, "command "+string(kind), trace.WithAttributes(commandKey.String(string(kind))))
	return ctx, func(replayed bool, err error) {
		outcome := "ok"
		if replayed {
			outcome = "replayed"
		}
		end(span, outcome, err)
	}
}

// StartTx starts the span of one store transaction: op is the store method that ran it
// (Mutate, Create, Query, …), dialect the store's (migrations.Dialect), write whether it is
// the write transaction. The returned function ends it with the transaction's error. Only a
// transaction inside a recorded span (a request's, a runtime call's) gets one: the workers'
// polls would otherwise fill the collector with a root span a second.
func (t *Tracer) StartTx(ctx context.Context, dialect, op string, write bool) (context.Context, func(error)) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx, func(error) {}
	}
	kind := "read"
	if write {
		kind = "write"
	}
	ctx, span := t.tracer.Start(ctx, "store "+op, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		semconv.DBSystemNameKey.String(dbSystem(dialect)), semconv.DBOperationName(op), txKey.String(kind)))
	return ctx, func(err error) { end(span, "ok", err) }
}

// end records the outcome, the error's stable code when it has one, and ends span. Only an
// internal error (no code) marks the span failed, and its message is not recorded: driver
// errors may quote values.
func end(span trace.Span, ok string, err error) {
	switch code := models.ErrorCode(err); {
	case err == nil:
		span.SetAttributes(outcomeKey.String(ok))
	case code != "":
		span.SetAttributes(outcomeKey.String(string(code)))
	default:
		span.SetAttributes(outcomeKey.String("error"))
		span.SetStatus(codes.Error, "internal error")
	}
	span.End()
}

// dbSystem is the semantic conventions' db.system.name of a dialect.
func dbSystem(dialect string) string {
	switch dialect {
	case "postgres":
		return "postgresql"
	case "sqlserver":
		return "microsoft.sql_server"
	case "oracle":
		return "oracle.db"
	}
	return dialect // sqlite, mysql
}

// Transport wraps base (http.DefaultTransport when nil) so that every request it sends gets a
// client span, named by peer and method only (paths hold ids), and carries the span's W3C
// traceparent header. The workflow runtime client sends through it.
func (t *Tracer) Transport(peer string, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{t: t, peer: peer, base: base}
}

type transport struct {
	t    *Tracer
	peer string
	base http.RoundTripper
}

func (tr *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, span := tr.t.tracer.Start(r.Context(), tr.peer+" "+r.Method, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		semconv.HTTPRequestMethodKey.String(r.Method), semconv.ServerAddress(strings.ToLower(r.URL.Hostname()))))
	r = r.Clone(ctx) // a RoundTripper must not change the caller's request
	tr.t.propagator.Inject(ctx, propagation.HeaderCarrier(r.Header))
	res, err := tr.base.RoundTrip(r)
	if err != nil {
		span.SetAttributes(outcomeKey.String("transport-error"))
		span.SetStatus(codes.Error, "transport error")
	} else {
		span.SetAttributes(semconv.HTTPResponseStatusCode(res.StatusCode))
		if res.StatusCode >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, http.StatusText(res.StatusCode))
		}
	}
	span.End()
	return res, err
}
