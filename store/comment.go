package store

import (
	"context"

	"usertasks/models"
)

// Comments keeps the comments on tasks (SPEC 10.1). A comment's text is protected: the store
// seals it with the key ring, bound to its tenant, task and comment id (storekit.CommentAAD),
// and opens it only to list it. Writes take the task's event sequence (never its revision: a
// comment changes no task) and are one transaction with their event and notifications. The
// comments of a task go with it: the purge removes them, rekey reseals and audit opens them.
type Comments interface {
	// AddComment runs add on the task as loaded in the write transaction, with the number of
	// comments it holds (deleted ones count), and stores in that one transaction: the comment,
	// sealed; add's comment-added event; a mentioned notification for each user it mentions
	// but the author, an excluded user or a guest (storekit.CommentNotifications; the delivery
	// checks that the recipient may read the task, so a mention of anyone else tells no one);
	// and a comment-added notification to the assignee when someone else comments. The comment
	// add returns has the id commentID; when the task has a comment with that id already, the
	// call is a replay: it returns that comment, writes nothing and does not run add. A task
	// missing in tenant is models.ErrNotFound; add's refusals come back unchanged.
	AddComment(ctx context.Context, tenant, taskID, commentID string, add models.CommentAddFunc) (models.Comment, error)
	// Comments is a page of one task's comments, oldest first (created time, then id), deleted
	// ones included with their text erased. An unknown or other tenant's task has no comments.
	Comments(ctx context.Context, q models.CommentQuery) (models.CommentPage, error)
	// DeleteComment runs decide on the comment (opened) and its task in the write transaction,
	// then erases the text, keeps the item with its deletion time and appends decide's
	// comment-deleted event. A comment deleted already is returned as it is after decide
	// agreed, with nothing written. An unknown comment, or one of another task or tenant, is
	// models.ErrNotFound.
	DeleteComment(ctx context.Context, tenant, taskID, commentID string, decide models.CommentDeleteFunc) (models.Comment, error)
}
