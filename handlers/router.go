// Package handlers holds the echo handlers: pages, JSON API, runtime protocol, guest API,
// middleware and the one error mapper.
package handlers

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"usertasks/models"
)

// Deps are what the handlers need from the rest of the application.
type Deps struct {
	Store  Readiness
	Logger *slog.Logger
}

// New builds the HTTP server's router. All routes are registered here, one table per area.
func New(d Deps) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(middleware.RequestID())
	e.Use(middleware.Recover())
	e.Use(middleware.BodyLimit(fmt.Sprintf("%dB", models.MaxRequestBodyBytes)))
	e.Use(requestLog(d.Logger))

	e.GET("/healthz", healthz)
	e.GET("/readyz", readyz(d.Store))
	e.GET("/", func(c echo.Context) error {
		return c.String(http.StatusOK, "User Tasks is running. The inbox is not built yet; see /healthz and /readyz.\n")
	})
	return e
}

// requestLog logs one line per request without query strings or bodies (they may hold
// tokens or protected data).
func requestLog(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			if log != nil {
				log.Info("request", "method", c.Request().Method, "path", c.Request().URL.Path,
					"status", c.Response().Status, "request_id", c.Response().Header().Get(echo.HeaderXRequestID))
			}
			return nil
		}
	}
}
