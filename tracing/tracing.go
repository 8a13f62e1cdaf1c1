// Package tracing owns the OpenTelemetry SDK: when an OTLP endpoint is configured it exports
// spans of request → service command → store transaction, and of outgoing runtime calls, over
// OTLP/HTTP. Without an endpoint nothing here is built: the packages below declare the small
// interfaces a Tracer satisfies (handlers.RequestTracer, tasks.CommandTracer,
// repository.TxTracer) and leave them nil.
//
// What a span may carry is decided here, in one place: route templates, command kinds,
// store operations, dialects, status codes and outcome codes. Never ids, titles, payloads,
// SQL arguments or tokens.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// Config says where spans go and which are kept. The zero Config (no URL) traces nothing.
type Config struct {
	// URL is the full OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces.
	URL string
	// Headers are sent with every export (e.g. a collector's API key).
	Headers map[string]string
	// ServiceName is the resource's service.name; Version its service.version.
	ServiceName, Version string
	// Sampler is one of Samplers; Ratio its argument for the traceidratio ones.
	Sampler string
	Ratio   float64
}

// Enabled reports whether c asks for tracing at all.
func (c Config) Enabled() bool { return c.URL != "" }

// Samplers are the OTEL_TRACES_SAMPLER values understood, as the OpenTelemetry specification
// names them; the default is parentbased_always_on.
var Samplers = []string{"always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"}

// DefaultSampler is the specification's default.
const DefaultSampler = "parentbased_always_on"

// ParseRatio reads a sampler argument: a probability from 0 to 1.
func ParseRatio(v string) (float64, error) {
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || !(r >= 0 && r <= 1) { // also NaN
		return 0, errors.New("must be a number from 0 to 1")
	}
	return r, nil
}

// sampler builds the named sampler; an unknown name is an error listing the known ones.
func sampler(name string, ratio float64) (sdktrace.Sampler, error) {
	switch name {
	case "always_on":
		return sdktrace.AlwaysSample(), nil
	case "always_off":
		return sdktrace.NeverSample(), nil
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(ratio), nil
	case "parentbased_always_on", "":
		return sdktrace.ParentBased(sdktrace.AlwaysSample()), nil
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample()), nil
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio)), nil
	}
	return nil, fmt.Errorf("unknown sampler; use one of %s", strings.Join(Samplers, ", "))
}

// Tracer starts the spans of this service and exports them in batches.
type Tracer struct {
	provider   *sdktrace.TracerProvider
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
}

// New builds the exporter and the batching provider for c. It does not connect: a collector
// that is down costs failed exports (logged through log), never a refused start. Shutdown
// flushes what is buffered.
func New(c Config, log *slog.Logger) (*Tracer, error) {
	if !c.Enabled() {
		return nil, errors.New("tracing: no OTLP endpoint configured")
	}
	s, err := sampler(c.Sampler, c.Ratio)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	// Every option is explicit, so the configuration table stays the one reader of these
	// variables; the exporter still honours the OTEL_EXPORTER_OTLP_* settings nobody passes
	// here (timeout, compression, certificates).
	exporter, err := otlptracehttp.New(context.Background(),
		otlptracehttp.WithEndpointURL(c.URL), otlptracehttp.WithHeaders(c.Headers))
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	if log != nil {
		// The SDK reports failed exports through the global handler; say it once per failure,
		// in the service's log, instead of on the standard logger.
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
			log.Warn("tracing: "+err.Error(), "error", err.Error())
		}))
	}
	name := c.ServiceName
	if name == "" {
		name = "usertasks"
	}
	res := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(name), semconv.ServiceVersion(c.Version))
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res), sdktrace.WithSampler(s))
	return &Tracer{
		provider:   provider,
		tracer:     provider.Tracer("usertasks"),
		propagator: propagation.TraceContext{},
	}, nil
}

// Shutdown exports the spans still buffered and stops the exporter, within ctx's deadline.
func (t *Tracer) Shutdown(ctx context.Context) error {
	if err := t.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("tracing: flush spans: %w", err)
	}
	return nil
}
