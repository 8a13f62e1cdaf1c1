package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// bulkRequest is the body of POST /api/v1/user-tasks/bulk. Which of assignee, priority, dueAt
// and reason are needed depends on the action; the service judges that.
type bulkRequest struct {
	Action      string            `json:"action"`
	Items       []json.RawMessage `json:"items"`
	Assignee    json.RawMessage   `json:"assignee"`
	Priority    *int              `json:"priority"`
	DueAt       json.RawMessage   `json:"dueAt"`
	Reason      string            `json:"reason"`
	OperationID string            `json:"operationId"`
}

// bulkItemRequest is one member of items.
type bulkItemRequest struct {
	TaskID           string `json:"taskId"`
	ExpectedRevision *int   `json:"expectedRevision"`
}

// bulkResultJSON answers a bulk request: one item per requested task, in request order.
type bulkResultJSON struct {
	Items []bulkItemJSON `json:"items"`
}

type bulkItemJSON struct {
	TaskID   string            `json:"taskId"`
	Outcome  tasks.BulkOutcome `json:"outcome"`
	Code     models.Code       `json:"code,omitempty"`
	Revision int               `json:"revision,omitempty"`
}

// bulkTasks handles POST /api/v1/user-tasks/bulk: 200 with every item's outcome.
func (h *taskAPI) bulkTasks(c echo.Context) error {
	a := actorOf(c)
	if err := tasks.MayBulk(a); err != nil {
		return err
	}
	in, err := parseBulk(c)
	if err != nil {
		return err
	}
	results, err := h.tasks.Bulk(c.Request().Context(), a, in)
	if err != nil {
		return err
	}
	out := bulkResultJSON{Items: make([]bulkItemJSON, len(results))}
	for i, r := range results {
		out.Items[i] = bulkItemJSON{TaskID: r.TaskID, Outcome: r.Outcome, Code: r.Code, Revision: r.Revision}
	}
	return c.JSON(http.StatusOK, out)
}

func parseBulk(c echo.Context) (tasks.BulkInput, error) {
	var req bulkRequest
	if err := decodeBody(c, &req); err != nil {
		return tasks.BulkInput{}, err
	}
	in := tasks.BulkInput{Action: tasks.BulkAction(req.Action), OperationID: req.OperationID, Priority: req.Priority, Reason: req.Reason}
	if len(req.Items) > tasks.MaxBulkItems {
		return tasks.BulkInput{}, models.InvalidField("items", fmt.Sprintf("must name at most %d tasks", tasks.MaxBulkItems))
	}
	var missing []models.FieldError
	for i, raw := range req.Items {
		var item bulkItemRequest
		prefix := fmt.Sprintf("items[%d].", i)
		if err := decodeObject(raw, &item, prefix); err != nil {
			return tasks.BulkInput{}, err
		}
		if item.ExpectedRevision == nil {
			missing = append(missing, models.FieldError{Field: prefix + "expectedRevision", Message: "is required"})
			continue
		}
		in.Items = append(in.Items, tasks.BulkItem{TaskID: item.TaskID, ExpectedRevision: *item.ExpectedRevision})
	}
	if len(missing) > 0 {
		return tasks.BulkInput{}, models.Invalid(models.CodeValidationFailed, missing...)
	}
	if len(req.Assignee) > 0 && string(req.Assignee) != "null" {
		ref, err := parseAssignee(req.Assignee)
		if err != nil {
			return tasks.BulkInput{}, err
		}
		in.Assignee = &ref
	}
	var err error
	in.DueAt, in.ClearDue, err = parseDueAt(req.DueAt)
	return in, err
}
