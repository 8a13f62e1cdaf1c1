package testfactory

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
)

// CommentAdder is the store side of a comment (store.Comments).
type CommentAdder interface {
	AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error)
}

// Comment stores a comment by a on task through the models' rules and returns it.
func Comment(ctx context.Context, t testing.TB, s CommentAdder, task models.Task, a models.Actor, text string) models.Comment {
	t.Helper()
	id := models.NewID()
	c, err := s.AddComment(ctx, task.Tenant, task.ID, id, func(now time.Time, cur models.Task, count int) (models.Comment, models.Event, error) {
		return models.AddComment(cur, a, id, text, count, now)
	})
	if err != nil {
		t.Fatalf("testfactory: comment: %v", err)
	}
	return c
}
