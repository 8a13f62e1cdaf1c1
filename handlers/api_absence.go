package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// absenceRequest is the body of PUT /api/v1/me/absence and of the manager's
// PUT /api/v1/user-task-participants/:id/absence.
type absenceRequest struct {
	From       string          `json:"from"`
	Until      string          `json:"until"`
	Substitute json.RawMessage `json:"substitute"`
}

// absenceJSON is an absence on the wire (SPEC 10.5).
type absenceJSON struct {
	User       *models.WireParticipant `json:"user"`
	From       string                  `json:"from"`
	Until      string                  `json:"until"`
	Substitute *models.WireParticipant `json:"substitute"`
	Active     bool                    `json:"active"`
	CreatedAt  string                  `json:"createdAt"`
	UpdatedAt  string                  `json:"updatedAt"`
}

func absenceOf(v tasks.AbsenceView) absenceJSON {
	return absenceJSON{User: v.User.Wire(), From: rfc3339(v.From), Until: rfc3339(v.Until), Substitute: v.Substitute.Wire(),
		Active: v.Active, CreatedAt: rfc3339(v.CreatedAt), UpdatedAt: rfc3339(v.UpdatedAt)}
}

// absentUserOf is whose absence the route names: nil for /me/absence, the participant of the
// path (provider from ?provider=, default "default") for the manager's route.
func absentUserOf(c echo.Context) *models.ParticipantRef {
	id := c.Param("id")
	if id == "" {
		return nil
	}
	// echo routes on the raw path when the request escapes what the plain path cannot hold (a
	// "/" as %2F), and then hands the parameter over escaped: unescape it once, here.
	if c.Request().URL.RawPath != "" {
		raw, err := url.PathUnescape(id)
		if err != nil {
			raw = "\x00" // no participant id: the service answers 404
		}
		id = raw
	}
	return &models.ParticipantRef{ID: id, Provider: c.QueryParam("provider"), Type: models.UserParticipant}
}

// getAbsence handles GET /api/v1/me/absence and GET /api/v1/user-task-participants/:id/absence.
func (h *taskAPI) getAbsence(c echo.Context) error {
	v, err := h.tasks.Absence(c.Request().Context(), actorOf(c), absentUserOf(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, absenceOf(v))
}

// putAbsence handles PUT /api/v1/me/absence and PUT /api/v1/user-task-participants/:id/absence.
func (h *taskAPI) putAbsence(c echo.Context) error {
	var req absenceRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	in, err := parseAbsence(req)
	if err != nil {
		return err
	}
	v, err := h.tasks.PutAbsence(c.Request().Context(), actorOf(c), absentUserOf(c), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, absenceOf(v))
}

// deleteAbsence handles DELETE /api/v1/me/absence and DELETE
// /api/v1/user-task-participants/:id/absence.
func (h *taskAPI) deleteAbsence(c echo.Context) error {
	if err := h.tasks.DeleteAbsence(c.Request().Context(), actorOf(c), absentUserOf(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func parseAbsence(req absenceRequest) (tasks.AbsenceInput, error) {
	var in tasks.AbsenceInput
	var problems []models.FieldError
	for _, f := range []struct {
		name, value string
		dst         *time.Time
	}{{"from", req.From, &in.From}, {"until", req.Until, &in.Until}} {
		t, err := time.Parse(time.RFC3339, f.value)
		if err != nil {
			problems = append(problems, models.FieldError{Field: f.name, Message: "must be an RFC 3339 time"})
			continue
		}
		*f.dst = t
	}
	if len(req.Substitute) == 0 || string(req.Substitute) == "null" {
		problems = append(problems, models.FieldError{Field: "substitute", Message: "is required"})
	} else {
		var sub userRequest
		if err := decodeObject(req.Substitute, &sub, "substitute."); err != nil {
			return in, err
		}
		in.Substitute = models.ParticipantRef{Type: sub.Type, Provider: sub.Provider, ID: sub.ID}
	}
	if len(problems) > 0 {
		return in, models.Invalid(models.CodeValidationFailed, problems...)
	}
	return in, nil
}
