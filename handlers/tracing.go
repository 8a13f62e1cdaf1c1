package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
)

// RequestTracer gives every request a server span (the tracing package). route is the
// router's template, c.Path(), never the raw path; the caller's trace context comes from the
// request's headers. It returns the context carrying the span, the trace id the request log
// line carries ("" when the span is not recorded) and the function that ends the span with the
// answered status.
type RequestTracer interface {
	StartRequest(r *http.Request, route string) (context.Context, string, func(status int))
}

// traceIDKey holds a request's trace id in the echo context, for the request log.
const traceIDKey = "usertasks.trace_id"

// traceRequests starts the server span before the request log and ends it after the error
// handler answered, so the span has the final status and the log line the span's trace id.
func traceRequests(t RequestTracer) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx, traceID, end := t.StartRequest(c.Request(), c.Path())
			c.SetRequest(c.Request().WithContext(ctx))
			if traceID != "" {
				c.Set(traceIDKey, traceID)
			}
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			end(c.Response().Status)
			return nil
		}
	}
}
