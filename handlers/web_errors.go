package handlers

import (
	"mime"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// browserErrors answers the errors that reach the echo error handler outside /api/ — unknown
// paths, wrong methods, errors of routes without webErrorPages — with the HTML error page when
// the client prefers HTML (SPEC 5.4: browsers never see problem+json). API paths and clients
// asking for JSON keep the problem+json answer of next.
func (w *web) browserErrors(next echo.HTTPErrorHandler) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed || isAPIPath(c.Request().URL.Path) || !prefersHTML(c.Request().Header.Get(echo.HeaderAccept)) {
			next(err, c)
			return
		}
		page := w.headers(func(c echo.Context) error { return w.renderError(c, err) })
		if page(c) != nil {
			next(err, c)
		}
	}
}

func isAPIPath(p string) bool { return p == "/api" || strings.HasPrefix(p, "/api/") }

// prefersHTML reports whether an Accept header ranks HTML at least as high as JSON. Browsers
// navigating send text/html first; API clients send JSON or */*, and */* alone keeps JSON.
func prefersHTML(accept string) bool {
	var html, json float64 = -1, -1
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= 1 {
				q = f
			}
		}
		switch mt {
		case "text/html", "application/xhtml+xml":
			html = max(html, q)
		case "application/json", "application/problem+json":
			json = max(json, q)
		}
	}
	return html > 0 && html >= json
}

// webFavicon handles GET /favicon.ico, which browsers ask for on their own whatever the page
// links to.
func webFavicon(c echo.Context) error {
	c.Request().URL.Path = "/static/favicon.ico"
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	staticFiles.ServeHTTP(c.Response(), c.Request())
	return nil
}
