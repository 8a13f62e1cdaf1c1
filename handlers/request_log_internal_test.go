package handlers

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

type routeRecorder struct{ routes []string }

func (r *routeRecorder) ObserveRequest(_, route string, _ int, _ time.Duration) {
	r.routes = append(r.routes, route)
}

// A route parameter that is a credential is redacted from the logged path; the observer
// hears the template.
func TestRequestLogRedactsSecretParams(t *testing.T) {
	var logs strings.Builder
	rec := &routeRecorder{}
	e := echo.New()
	e.Use(requestLog(slog.New(slog.NewJSONHandler(&logs, nil)), rec))
	e.GET("/guest/:token/tasks/:id", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })

	const secret = "Sg7-secret-token"
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/guest/"+secret+"/tasks/t-1?code=123456", nil))
	if strings.Contains(logs.String(), secret) || strings.Contains(logs.String(), "123456") {
		t.Fatalf("a secret reached the log: %s", logs.String())
	}
	if !strings.Contains(logs.String(), `"path":"/guest/[redacted]/tasks/t-1"`) {
		t.Fatalf("log %s", logs.String())
	}
	if len(rec.routes) != 1 || rec.routes[0] != "/guest/:token/tasks/:id" {
		t.Fatalf("observed routes %v", rec.routes)
	}
}
