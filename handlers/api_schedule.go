package handlers

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// scheduleRequest is the body of PATCH /api/v1/user-tasks/:id. dueAt null clears the due date;
// an absent member keeps its value.
type scheduleRequest struct {
	commandFields
	Priority *int            `json:"priority"`
	DueAt    json.RawMessage `json:"dueAt"`
}

// updateSchedule handles PATCH /api/v1/user-tasks/:id.
func (h *taskAPI) updateSchedule(c echo.Context) error {
	return runCommand(c, parseSchedule, h.tasks.UpdateSchedule, http.StatusOK, resultOf)
}

func parseSchedule(req scheduleRequest) (tasks.ScheduleInput, error) {
	common, err := req.common(false)
	if err != nil {
		return tasks.ScheduleInput{}, err
	}
	in := tasks.ScheduleInput{Common: common, Priority: req.Priority}
	in.DueAt, in.ClearDue, err = parseDueAt(req.DueAt)
	if err != nil {
		return tasks.ScheduleInput{}, err
	}
	return in, nil
}

// parseDueAt reads a dueAt member: absent keeps the due date (nil, false), null clears it
// (nil, true), an RFC 3339 time sets it.
func parseDueAt(raw json.RawMessage) (*time.Time, bool, error) {
	switch {
	case len(raw) == 0:
		return nil, false, nil
	case string(raw) == "null":
		return nil, true, nil
	}
	var s string
	due, err := time.Time{}, json.Unmarshal(raw, &s)
	if err == nil {
		due, err = time.Parse(time.RFC3339, s)
	}
	if err != nil {
		return nil, false, models.InvalidField("dueAt", "must be an RFC 3339 time or null")
	}
	due = due.UTC()
	return &due, false, nil
}
