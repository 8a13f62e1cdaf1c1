package handlers

import (
	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// directoryParticipantJSON is one participant of the directory on the wire: never a tenant; the
// display name falls back to the id.
type directoryParticipantJSON struct {
	Type        models.ParticipantType   `json:"type"`
	Provider    string                   `json:"provider"`
	ID          string                   `json:"id"`
	DisplayName string                   `json:"displayName"`
	Groups      []models.WireParticipant `json:"groups,omitempty"`
}

type participantPageJSON struct {
	Items      []directoryParticipantJSON `json:"items"`
	NextCursor *string                    `json:"nextCursor"`
}

// listParticipants handles GET /api/v1/user-task-participants.
func (h *taskAPI) listParticipants(c echo.Context) error {
	return runQuery(c, parseParticipantQuery, h.tasks.Participants, participantPageOf)
}

// participantPageOf renders a page of the directory; a display name falls back to the id.
func participantPageOf(page tasks.ParticipantPage) participantPageJSON {
	out := participantPageJSON{Items: make([]directoryParticipantJSON, 0, len(page.Items)), NextCursor: text(page.NextCursor)}
	for _, p := range page.Items {
		item := directoryParticipantJSON{Type: p.Type, Provider: p.Provider, ID: p.ID, DisplayName: firstNonEmpty(p.DisplayName, p.ID)}
		for _, g := range page.Groups[p.Key()] {
			item.Groups = append(item.Groups, *g.Wire())
		}
		out.Items = append(out.Items, item)
	}
	return out
}

// parseParticipantQuery reads search, type, cursor and limit (default 50, above 200 clamped);
// the service checks the values.
func parseParticipantQuery(c echo.Context) (tasks.ParticipantQuery, error) {
	r := queryReader{q: c.QueryParams()}
	q := tasks.ParticipantQuery{Search: r.str("search"), Type: models.ParticipantType(r.str("type")), Cursor: r.str("cursor"), Limit: r.limit()}
	return q, r.err()
}
