package handlers

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// MetricsDeps expose the metrics on the main listener.
type MetricsDeps struct {
	// Requests hears every request (latency by route template); nil hears none.
	Requests RequestObserver
	// Handler is the Prometheus exposition. It is served at GET /metrics only when Token is
	// set, and only to a caller presenting Token as its bearer token; without a token the
	// operator serves it on a separate, private listen address instead (or not at all).
	Handler http.Handler
	Token   string
}

// registerMetrics adds GET /metrics behind the metrics bearer token.
func registerMetrics(e *echo.Echo, m *MetricsDeps) {
	if m == nil || m.Handler == nil || m.Token == "" {
		return
	}
	want := sha256.Sum256([]byte(m.Token))
	e.GET("/metrics", echo.WrapHandler(m.Handler), func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			got, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
			sum := sha256.Sum256([]byte(got))
			if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
				c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="metrics"`)
				return models.ErrUnauthorized
			}
			return next(c)
		}
	})
}
