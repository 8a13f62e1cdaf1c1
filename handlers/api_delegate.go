package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// delegateRequest is the body of POST /api/v1/user-tasks/:id/delegate.
type delegateRequest struct {
	commandFields
	To     json.RawMessage `json:"to"`
	Reason string          `json:"reason"`
}

// userRequest is a user named in a request (a delegate, a substitute): no display name (the
// directory names them) and a type that may only say user.
type userRequest struct {
	Type     models.ParticipantType `json:"type"`
	Provider string                 `json:"provider"`
	ID       string                 `json:"id"`
}

// delegateTask handles POST /api/v1/user-tasks/:id/delegate.
func (h *taskAPI) delegateTask(c echo.Context) error {
	return runCommand(c, parseDelegate, h.tasks.Delegate, http.StatusOK, resultOf)
}

func parseDelegate(req delegateRequest) (tasks.DelegateInput, error) {
	common, err := req.common(false)
	if err != nil {
		return tasks.DelegateInput{}, err
	}
	if len(req.To) == 0 || string(req.To) == "null" {
		return tasks.DelegateInput{}, models.InvalidField("to", "is required")
	}
	var to userRequest
	if err := decodeObject(req.To, &to, "to."); err != nil {
		return tasks.DelegateInput{}, err
	}
	return tasks.DelegateInput{Common: common, To: models.ParticipantRef{Type: to.Type, Provider: to.Provider, ID: to.ID}, Reason: req.Reason}, nil
}

// returnRequest is the body of POST /api/v1/user-tasks/:id/return.
type returnRequest struct {
	commandFields
	Reason string `json:"reason"`
}

// returnTask handles POST /api/v1/user-tasks/:id/return.
func (h *taskAPI) returnTask(c echo.Context) error {
	return runCommand(c, parseReturn, h.tasks.Return, http.StatusOK, resultOf)
}

func parseReturn(req returnRequest) (tasks.ReturnInput, error) {
	common, err := req.common(false)
	return tasks.ReturnInput{Common: common, Reason: req.Reason}, err
}
