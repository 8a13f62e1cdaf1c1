package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// revealRequest is the body of POST /api/v1/user-tasks/:id/reveal.
type revealRequest struct {
	FieldKey *string `json:"fieldKey"`
}

// revealJSON answers a reveal with the one masked value (null when the field has none).
type revealJSON struct {
	FieldKey string `json:"fieldKey"`
	Value    any    `json:"value"`
}

// revealField handles POST /api/v1/user-tasks/:id/reveal: one masked field, audited.
func (h *taskAPI) revealField(c echo.Context) error {
	key, err := parseReveal(c)
	if err != nil {
		return err
	}
	value, err := h.tasks.Reveal(c.Request().Context(), actorOf(c), c.Param("id"), key)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, revealJSON{FieldKey: key, Value: value})
}

func parseReveal(c echo.Context) (string, error) {
	var req revealRequest
	if err := decodeBody(c, &req); err != nil {
		return "", err
	}
	if req.FieldKey == nil || *req.FieldKey == "" {
		return "", models.InvalidField("fieldKey", "is required")
	}
	return *req.FieldKey, nil
}
