package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// capabilitiesJSON are the caller's flags for building a UI.
type capabilitiesJSON struct {
	Tenant       string                 `json:"tenant"`
	Subject      models.WireParticipant `json:"subject"`
	Manager      bool                   `json:"manager"`
	CanView      bool                   `json:"canView"`
	CanClaim     bool                   `json:"canClaim"`
	CanComplete  bool                   `json:"canComplete"`
	CanAssign    bool                   `json:"canAssign"`
	CanUpdate    bool                   `json:"canUpdate"`
	CanCancel    bool                   `json:"canCancel"`
	CanInvite    bool                   `json:"canInvite"`
	CanSupervise bool                   `json:"canSupervise"`
	Scopes       []models.Scope         `json:"scopes"`
}

// capabilities handles GET /api/v1/user-tasks/capabilities.
func (h *taskAPI) capabilities(c echo.Context) error {
	caps := h.tasks.Capabilities(actorOf(c))
	return c.JSON(http.StatusOK, capabilitiesJSON{
		Tenant:       caps.Tenant,
		Subject:      *caps.Subject.Wire(),
		Manager:      caps.Manager,
		CanView:      caps.CanView,
		CanClaim:     caps.CanClaim,
		CanComplete:  caps.CanComplete,
		CanAssign:    caps.CanAssign,
		CanUpdate:    caps.CanUpdate,
		CanCancel:    caps.CanCancel,
		CanInvite:    caps.CanInvite,
		CanSupervise: caps.CanSupervise,
		Scopes:       nonNil(caps.Scopes),
	})
}
