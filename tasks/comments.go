package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"usertasks/models"
)

// Comments (SPEC 10.1): whoever may read a task's summary — managers, the assignee,
// non-excluded candidates, the completer, past actors — reads and writes its comments; a task
// they may not see is 404, the same answer as a missing one. Guests never (403). The store
// runs the models' decisions (models.AddComment, models.DeleteComment) inside its write.

// CommentInput is a new comment: its text and an optional operation id that makes a retry
// return the first answer.
type CommentInput struct {
	Text        string
	OperationID string
}

// CommentPage is a page of comments and the cursor of the next.
type CommentPage struct {
	Items []models.Comment
	Next  *models.CommentCursor
}

// commentReader checks that a may read the comments of task id: a signed-in person with the
// view permission who may read the task's summary.
func (s *Service) commentReader(ctx context.Context, a models.Actor, id string) error {
	if a.Guest != nil || a.System {
		return models.ErrForbidden
	}
	if err := requirePermission(a, models.PermView); err != nil {
		return err
	}
	_, _, err := s.readable(ctx, a, id)
	return err
}

// AddComment adds a's comment to task id. A retry with the same operation id by the same
// person returns the first comment (201 again); the same operation id with another text is
// 409 idempotency-conflict. Bad text, a task holding 500 comments already: 422 naming text.
func (s *Service) AddComment(ctx context.Context, a models.Actor, id string, in CommentInput) (models.Comment, error) {
	if in.OperationID != "" {
		if msg := models.FieldProblem(in.OperationID, models.MaxOperationIDLength, false, models.Identifier); msg != "" {
			return models.Comment{}, models.InvalidField("operationId", msg)
		}
	}
	if err := s.commentReader(ctx, a, id); err != nil {
		return models.Comment{}, err
	}
	if msg := models.CommentTextProblem(in.Text); msg != "" {
		return models.Comment{}, models.InvalidField("text", msg)
	}
	cid := commentID(a, id, in.OperationID)
	c, err := s.store.AddComment(ctx, a.Tenant, id, cid, func(now time.Time, t models.Task, count int) (models.Comment, models.Event, error) {
		return models.AddComment(t, a, cid, in.Text, count, now)
	})
	if err != nil {
		return models.Comment{}, err
	}
	if in.OperationID != "" && !c.Deleted() && c.Text != strings.TrimSpace(in.Text) {
		return models.Comment{}, models.Conflict(models.CodeIdempotencyConflict)
	}
	return c, nil
}

// commentID is the id of a's comment on task: derived from the operation id when there is one,
// so a retry finds the first comment (another person's same operation id derives another id);
// a new id otherwise. Derived ids have the form of models.NewID's.
func commentID(a models.Actor, task, operationID string) string {
	if operationID == "" {
		return models.NewID()
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{"comment", a.Tenant, task, a.Subject.Provider, string(a.Subject.Type), a.Subject.ID, operationID}, "\x1f")))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// Comments is a page of task id's comments, oldest first, for a reader of the task.
func (s *Service) Comments(ctx context.Context, a models.Actor, id string, after *models.CommentCursor, limit int) (CommentPage, error) {
	if err := s.commentReader(ctx, a, id); err != nil {
		return CommentPage{}, err
	}
	p, err := s.store.Comments(ctx, models.CommentQuery{Tenant: a.Tenant, TaskID: id, After: after, Limit: limit})
	if err != nil {
		return CommentPage{}, err
	}
	return CommentPage{Items: p.Items, Next: p.Next}, nil
}

// DeleteComment erases comment commentID of task id: its author within 15 minutes, or a
// manager (403 otherwise); an unknown comment is 404. Deleting a deleted comment answers the
// same again.
func (s *Service) DeleteComment(ctx context.Context, a models.Actor, id, commentID string) (models.Comment, error) {
	if err := s.commentReader(ctx, a, id); err != nil {
		return models.Comment{}, err
	}
	if err := possibleID(commentID); err != nil {
		return models.Comment{}, err
	}
	return s.store.DeleteComment(ctx, a.Tenant, id, commentID, func(now time.Time, t models.Task, c models.Comment) (models.Event, error) {
		return models.DeleteComment(t, a, c, now)
	})
}
