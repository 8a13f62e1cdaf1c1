package repository

import (
	"context"
	"runtime"
	"strings"
)

// TxTracer hears every store transaction (the tracing package's spans). op is the exported
// Store method that ran it (Mutate, Create, Query, …); dialect is the store's. It is given no
// SQL, no arguments and no ids.
type TxTracer interface {
	StartTx(ctx context.Context, dialect, op string, write bool) (context.Context, func(error))
}

// TraceWith makes every transaction a span of t. Call it once, before the store is shared;
// without it (the default) transactions are not traced and cost nothing extra.
func (s *Store) TraceWith(t TxTracer) { s.tracer = t }

// traceTx starts the span of a transaction when a tracer is set. It is called from inWrite and
// inRead, so the operation is named by walking up to the first exported Store method: one
// place instead of a name passed through every call site.
func (s *Store) traceTx(ctx context.Context, write bool) (context.Context, func(error)) {
	if s.tracer == nil {
		return ctx, func(error) {}
	}
	return s.tracer.StartTx(ctx, string(s.dialect), callerOp(), write)
}

// callerOp is the name of the nearest exported *Store method on the stack ("Mutate" for
// Mutate → mutateOnce → inWrite), or "transaction" when there is none.
func callerOp() string {
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	const prefix = "usertasks/repository.(*Store)."
	for {
		f, more := frames.Next()
		if rest, ok := strings.CutPrefix(f.Function, prefix); ok {
			name, _, _ := strings.Cut(rest, ".") // Create.func1 → Create
			if name != "" && name[0] >= 'A' && name[0] <= 'Z' {
				return name
			}
		}
		if !more {
			return "transaction"
		}
	}
}
