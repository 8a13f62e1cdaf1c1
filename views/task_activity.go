package views

import "time"

// Activity is the task page's Activity section (SPEC 10.1, 10.2): the task's comments and
// files in time order, who will see what is added, and the forms to add them. It exists only
// for people who may read the task's summary; guests never get one.
type Activity struct {
	Items []ActivityItem // oldest first
	// More says the list stopped before the task's last comment (activityCommentLimit).
	More    bool
	Comment *CommentForm // nil: the caller may not comment
	Upload  *UploadForm  // nil: no uploads (a closed task, or attachments not served)
	Error   string       // a refused delete, said above the list
	MaxSize string       // the file limit in words ("10 MiB")
}

// ActivityItem is one comment or one file.
type ActivityItem struct {
	ID     string
	Author string // display name as shown elsewhere on the page
	At     time.Time
	// A comment: its parsed text (nil once deleted) and when it was deleted.
	Comment bool
	Text    []Block
	Deleted *time.Time
	// A file: its name, type, size in words and download link.
	FileName    string
	ContentType string
	Size        string
	Download    string
	Delete      *Command // nil when the caller may not delete it (now)
}

// CommentForm is the "Add comment" form, fresh or as refused.
type CommentForm struct {
	Command
	Text  string
	Error string
}

// UploadForm is the "Upload file" form; a multipart form whose hidden fields come before the
// file, so the server reads the token before the bytes (web_task_activity_upload.go).
type UploadForm struct {
	Command
	Error string
}
