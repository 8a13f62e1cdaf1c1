package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"usertasks/live"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/tasks"
)

// The comments API (SPEC 10.1):
//
//	POST   /api/v1/user-tasks/{id}/comments              201 {id, author, text, createdAt, mentions}
//	GET    /api/v1/user-tasks/{id}/comments?cursor=&limit= 200 {items, nextCursor}, oldest first
//	DELETE /api/v1/user-tasks/{id}/comments/{commentId}  204

// commentJSON is one comment on the wire; a deleted one is {id, author, createdAt, deletedAt}.
type commentJSON struct {
	ID        string                    `json:"id"`
	Author    *models.WireParticipant   `json:"author"`
	Text      *string                   `json:"text,omitempty"`
	CreatedAt string                    `json:"createdAt"`
	DeletedAt *string                   `json:"deletedAt,omitempty"`
	Mentions  *[]models.WireParticipant `json:"mentions,omitempty"` // [] when none; absent once deleted
}

func commentOf(c models.Comment) commentJSON {
	out := commentJSON{ID: c.ID, Author: c.Author.Wire(), CreatedAt: rfc3339(c.CreatedAt), DeletedAt: timestamp(c.DeletedAt)}
	if c.Deleted() {
		return out
	}
	text := c.Text
	out.Text = &text
	mentions := make([]models.WireParticipant, 0, len(c.Mentions))
	for _, m := range c.Mentions {
		mentions = append(mentions, *m.Wire())
	}
	out.Mentions = &mentions
	return out
}

// addComment handles POST /api/v1/user-tasks/:id/comments.
func (h *taskAPI) addComment(c echo.Context) error {
	var body struct {
		Text        *string `json:"text"`
		OperationID string  `json:"operationId"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	if body.Text == nil {
		return models.InvalidField("text", "is required")
	}
	a := actorOf(c)
	out, err := h.tasks.AddComment(c.Request().Context(), a, c.Param("id"), tasks.CommentInput{Text: *body.Text, OperationID: body.OperationID})
	if err != nil {
		return err
	}
	announceActivity(h.live, a.Tenant, c.Param("id"), live.KindComment)
	return c.JSON(http.StatusCreated, commentOf(out))
}

// listComments handles GET /api/v1/user-tasks/:id/comments.
func (h *taskAPI) listComments(c echo.Context) error {
	r := queryReader{q: c.QueryParams()}
	limit, raw := r.limit(), r.str("cursor")
	if err := r.err(); err != nil {
		return err
	}
	id := c.Param("id")
	var after *models.CommentCursor
	if raw != "" {
		var err error
		if after, err = storekit.DecodeCommentCursor(raw, id); err != nil {
			return err
		}
	}
	page, err := h.tasks.Comments(c.Request().Context(), actorOf(c), id, after, limit)
	if err != nil {
		return err
	}
	out := struct {
		Items      []commentJSON `json:"items"`
		NextCursor *string       `json:"nextCursor"`
	}{Items: make([]commentJSON, 0, len(page.Items))}
	for _, cm := range page.Items {
		out.Items = append(out.Items, commentOf(cm))
	}
	if page.Next != nil {
		s := storekit.EncodeCommentCursor(*page.Next, id)
		out.NextCursor = &s
	}
	return c.JSON(http.StatusOK, out)
}

// deleteComment handles DELETE /api/v1/user-tasks/:id/comments/:commentId.
func (h *taskAPI) deleteComment(c echo.Context) error {
	a := actorOf(c)
	if _, err := h.tasks.DeleteComment(c.Request().Context(), a, c.Param("id"), c.Param("commentId")); err != nil {
		return err
	}
	announceActivity(h.live, a.Tenant, c.Param("id"), live.KindComment)
	return c.NoContent(http.StatusNoContent)
}
