package storekit

import "usertasks/models"

// CommentKeyset is a task's comment list's order: oldest first by creation, then by id. Its
// cursors are the task list's (Keyset), with a sort no other list has, and bound to their task
// through the filter digest, so a cursor of one task's comments pages no other list.
var CommentKeyset = Keyset{Sort: "comment-created", Kind: KindTime}

// commentFilters binds a comment cursor to its task.
func commentFilters(taskID string) string { return "task:" + taskID }

// EncodeCommentCursor renders the position after c in the comments of task taskID.
func EncodeCommentCursor(c models.CommentCursor, taskID string) string {
	// A time value and an id always encode: the error of Encode is for an unknown sort kind.
	raw, _ := CommentKeyset.Encode(commentFilters(taskID), SortValue{Time: c.CreatedAt}, c.ID)
	return raw
}

// DecodeCommentCursor reads a cursor EncodeCommentCursor made for the same task; anything else
// is a malformed request. The id must be an identifier, like the ids the store writes.
func DecodeCommentCursor(raw, taskID string) (*models.CommentCursor, error) {
	v, id, err := CommentKeyset.Decode(raw, commentFilters(taskID))
	if err != nil {
		return nil, err
	}
	if id == "" || len(id) > 64 || models.TextProblem(id, models.Identifier) != "" {
		return nil, models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: "the cursor names no comment"})
	}
	return &models.CommentCursor{CreatedAt: v.Time, ID: id}, nil
}
