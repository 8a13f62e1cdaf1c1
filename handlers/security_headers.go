package handlers

import (
	"github.com/labstack/echo/v4"
)

// baseSecurityHeaders sets the headers every answer carries — the JSON API's, the health
// probes', the error answers of unknown paths — before any route runs: no sniffing, no framing,
// no referrer, and a CSP that lets a JSON or problem body load nothing should a browser render
// it. The pages replace the CSP and referrer policy with their own (webSecurityHeaders). HSTS
// is sent on HTTPS, whether TLS ends here or at a proxy that says so (browsers ignore it on
// plain HTTP, so a forged X-Forwarded-Proto gains nothing).
func baseSecurityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		if c.Scheme() == "https" {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		return next(c)
	}
}
