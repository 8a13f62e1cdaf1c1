package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// eventJSON is one entry of a task's audit timeline: safe fields only.
type eventJSON struct {
	ID          string                  `json:"id"`
	Seq         int                     `json:"seq"`
	Revision    int                     `json:"revision"`
	Type        models.EventType        `json:"type"`
	OccurredAt  string                  `json:"occurredAt"`
	OperationID *string                 `json:"operationId"`
	Actor       *models.WireParticipant `json:"actor"`
	Reason      *string                 `json:"reason"`
	Metadata    json.RawMessage         `json:"metadata"`
}

type eventPageJSON struct {
	Items      []eventJSON `json:"items"`
	NextCursor *string     `json:"nextCursor"`
}

// listEvents handles GET /api/v1/user-tasks/:id/events.
func (h *taskAPI) listEvents(c echo.Context) error {
	cursor, limit, err := parseEventsQuery(c)
	if err != nil {
		return err
	}
	page, err := h.tasks.Events(c.Request().Context(), actorOf(c), c.Param("id"), cursor, limit)
	if err != nil {
		return err
	}
	out := eventPageJSON{Items: make([]eventJSON, 0, len(page.Items)), NextCursor: text(page.NextCursor)}
	for _, e := range page.Items {
		if len(e.Metadata) == 0 {
			e.Metadata = nil // null on the wire
		}
		out.Items = append(out.Items, eventJSON{
			ID: e.ID, Seq: e.Seq, Revision: e.Revision, Type: e.Type, OccurredAt: rfc3339(e.OccurredAt),
			OperationID: text(e.OperationID), Actor: e.Actor.Wire(), Reason: text(e.Reason), Metadata: e.Metadata,
		})
	}
	return c.JSON(http.StatusOK, out)
}

// parseEventsQuery reads cursor and limit (default 50, above 200 clamped).
func parseEventsQuery(c echo.Context) (cursor string, limit int, err error) {
	r := queryReader{q: c.QueryParams()}
	cursor, limit = r.str("cursor"), r.limit()
	return cursor, limit, r.err()
}
