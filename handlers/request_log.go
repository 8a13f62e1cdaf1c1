package handlers

import (
	"log/slog"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// RequestObserver hears every answered request (the metrics' latency histogram). route is the
// router's template, c.Path(), never the raw path: ids must not become label values.
type RequestObserver interface {
	ObserveRequest(method, route string, status int, elapsed time.Duration)
}

// secretParams are route parameters whose values are credentials: the logged path shows them
// redacted.
var secretParams = map[string]bool{"token": true, "t": true, "code": true, "secret": true}

// requestLog logs one line per request, after the error handler answered: method, route
// template, path (without the query string, which may hold a guest link's token, and with
// secret parameters redacted), status, duration in milliseconds, request id and, when the
// request's span is recorded, its trace id. Bodies are never logged. observe, when set, hears
// the same request for the metrics.
func requestLog(log *slog.Logger, observe RequestObserver) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			elapsed := time.Since(start)
			req, res, route := c.Request(), c.Response(), c.Path()
			if route == "" {
				route = "unmatched" // no route: the raw path must not stand in for one
			}
			if observe != nil {
				observe.ObserveRequest(req.Method, route, res.Status, elapsed)
			}
			if log != nil {
				attrs := []any{"method", req.Method, "route", route, "path", loggedPath(c),
					"status", res.Status, "duration_ms", float64(elapsed.Microseconds()) / 1000,
					"request_id", res.Header().Get(echo.HeaderXRequestID)}
				if id, ok := c.Get(traceIDKey).(string); ok {
					attrs = append(attrs, "trace_id", id) // joins the line to its trace
				}
				log.Info("request", attrs...)
			}
			return nil
		}
	}
}

// loggedPath is the request path without its query, with secret route parameters redacted.
func loggedPath(c echo.Context) string {
	path := c.Request().URL.EscapedPath()
	for i, name := range c.ParamNames() {
		if v := c.ParamValues(); i < len(v) && secretParams[name] && v[i] != "" {
			path = strings.ReplaceAll(path, v[i], "[redacted]")
		}
	}
	return logPath(path) // also when no route matched, a token in an invitation path stays out
}

// maxRequestIDLength bounds a request id a client sends.
const maxRequestIDLength = 64

// acceptRequestID keeps a client's X-Request-Id only when it is a short token of letters,
// digits, '-', '_', '.' and ':'; anything else (control characters, spaces, megabytes) is
// dropped, and echo's RequestID middleware then makes one up.
func acceptRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header
		if id := h.Get(echo.HeaderXRequestID); id != "" && !plausibleRequestID(id) {
			h.Del(echo.HeaderXRequestID)
		}
		return next(c)
	}
}

func plausibleRequestID(id string) bool {
	if len(id) > maxRequestIDLength {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:", r)
		if !ok {
			return false
		}
	}
	return true
}
