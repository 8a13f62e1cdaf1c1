package docstore

import (
	"context"
	"errors"

	"usertasks/models"
)

func (s *Store) AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error) {
	return models.Comment{}, errors.New("TODO")
}
func (s *Store) Comments(ctx context.Context, q models.CommentQuery) (models.CommentPage, error) {
	return models.CommentPage{}, errors.New("TODO")
}
func (s *Store) DeleteComment(ctx context.Context, tenant, taskID, commentID string, decide models.CommentDeleteFunc) (models.Comment, error) {
	return models.Comment{}, errors.New("TODO")
}
