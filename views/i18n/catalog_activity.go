package i18n

import "strings"

// ActivityText is the task page's Activity section: comments and files (SPEC 10.1, 10.2).
type ActivityText struct {
	Heading       string
	Empty         string
	More          string // the list stops before the task's last comments
	Audience      string // who will see a comment or a file, said above the forms
	Commented     string // "commented" before the time
	Attached      string // "attached a file" before the time
	Deleted       string // a deleted comment, before the time it was deleted
	CommentLabel  string
	CommentHelp   string
	CommentSubmit string
	FileLabel     string
	FileHelp      string // "%s": the size limit
	FileSubmit    string
	Delete        string
	DeleteComment string
	DeleteFile    string // "%s": the file name, for screen readers

	FlashCommented string
	FlashAttached  string
	FlashDeleted   string

	// Refusals in words, by the models' message (the store's and the service's), so the page
	// speaks the page's language; a message not listed falls back to the field messages.
	Refusals map[string]string
	// TooLarge is an upload over the limit ("%s": the limit); Unsupported a type not accepted.
	TooLarge    string
	Unsupported string
	NoFile      string // the form was sent without a file
	// DeleteRefused: only the author within 15 minutes, or a manager, may delete.
	DeleteRefused string

	// The inbox row's count (ActivityCount): the column's header for screen readers and the
	// counted phrases, singular and plural.
	ColActivity  string
	CommentCount [2]string
	FileCount    [2]string
}

// ActivityCount says an inbox row's counts in words, "3 comments, 1 file"; a kind counted 0 is
// left out, "" when both are.
func (c *Catalog) ActivityCount(comments, files int) string {
	var parts []string
	if comments > 0 {
		parts = append(parts, c.Count(c.Activity.CommentCount, comments))
	}
	if files > 0 {
		parts = append(parts, c.Count(c.Activity.FileCount, files))
	}
	return strings.Join(parts, ", ")
}
