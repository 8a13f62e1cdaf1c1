package handlers

import (
	"net/http"
	"path"

	"github.com/labstack/echo/v4"

	"usertasks/static"
)

// staticFiles serves the embedded assets.
var staticFiles = http.StripPrefix(static.Prefix, http.FileServerFS(static.FS))

// webStatic handles GET /static/*: the embedded CSS, JS and icon. A URL carrying the asset's
// current content version (static.Path) is immutable and cached for a year; others revalidate.
func webStatic(c echo.Context) error {
	name := path.Clean(c.Param("*"))
	if name == "." || name == "/" {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	if v := c.QueryParam("v"); v != "" && v == static.Version(name) {
		h.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		h.Set(echo.HeaderCacheControl, "no-cache")
	}
	staticFiles.ServeHTTP(c.Response(), c.Request())
	return nil
}
