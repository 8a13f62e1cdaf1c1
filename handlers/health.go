package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Readiness is what /readyz asks of the store.
type Readiness interface {
	Ping(ctx context.Context) error
	CheckSchema(ctx context.Context) error
}

// healthz handles GET /healthz: the process is up.
func healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz handles GET /readyz: the database answers and its schema is this binary's.
func readyz(r Readiness) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
		defer cancel()
		if err := r.Ping(ctx); err != nil {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		}
		if err := r.CheckSchema(ctx); err != nil {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "schema version mismatch"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
	}
}
