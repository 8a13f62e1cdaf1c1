package main

import (
	"context"
	"log/slog"

	"usertasks/handlers"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/tracing"
	"usertasks/workflow"
)

// startTracing builds the tracer when an endpoint is configured and makes every transaction of
// the SQL store a span (sqlStore nil: the document store, whose writes have no spans yet);
// without an endpoint it builds nothing and a.tracer stays nil.
func (a *app) startTracing(cfg config, sqlStore *repository.Store, log *slog.Logger) error {
	tc := cfg.Tracing.config(currentBuild().Version)
	if !tc.Enabled() {
		return nil
	}
	t, err := tracing.New(tc, log)
	if err != nil {
		return err
	}
	a.tracer = t
	if sqlStore != nil {
		sqlStore.TraceWith(t)
	}
	log.Info("tracing: spans are exported over OTLP/HTTP", "service", tc.ServiceName, "sampler", tc.Sampler)
	return nil
}

// The tracer as each consumer's interface: nil, not a typed nil, when tracing is off, so the
// consumers' nil checks skip it.

func (a *app) requestTracer() handlers.RequestTracer {
	if a.tracer == nil {
		return nil
	}
	return a.tracer
}

func (a *app) commandTracer() tasks.CommandTracer {
	if a.tracer == nil {
		return nil
	}
	return a.tracer
}

// runtimeOptions send the runtime calls through the tracer's transport: a client span and a
// traceparent header on each.
func (a *app) runtimeOptions() workflow.HTTPRuntimeOptions {
	if a.tracer == nil {
		return workflow.HTTPRuntimeOptions{}
	}
	return workflow.HTTPRuntimeOptions{Transport: a.tracer.Transport("runtime", nil)}
}

// flushTracing exports the spans still buffered, within the shutdown's deadline.
func (a *app) flushTracing(ctx context.Context, log *slog.Logger) {
	if a.tracer == nil {
		return
	}
	if err := a.tracer.Shutdown(ctx); err != nil {
		log.Warn(err.Error(), "error", err.Error())
	}
}
