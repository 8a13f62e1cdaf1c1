package handlers

import (
	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
)

// activityCounts puts the comment and file counts on the inbox rows (rows[i] shows items[i],
// issue 29 item 4) with one read for the whole page. The counts adorn the rows: a read that
// fails is logged and the page is shown without them, never as an error.
func (w *web) activityCounts(c echo.Context, a models.Actor, items []tasks.TaskView, rows []views.InboxRow) {
	if len(items) == 0 {
		return
	}
	counts, err := w.tasks.ActivityCounts(c.Request().Context(), a, items)
	if err != nil {
		w.log.WarnContext(c.Request().Context(), "inbox activity counts", "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "error", err.Error())
		return
	}
	for i, v := range items {
		if i < len(rows) {
			rows[i].Activity = counts[v.Task.ID]
		}
	}
}
