package handlers

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIJSON is the hand-written OpenAPI 3.1 document of the JSON API. The handler tests
// validate every request and response they make against it.
//
//go:embed openapi.json
var openAPIJSON []byte

// openAPIDocument handles GET /api/v1/openapi.json (public, no token).
func openAPIDocument(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPIJSON)
}
