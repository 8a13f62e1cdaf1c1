package i18n

// BulkText is the text of the bulk actions on a manager's lists and of their result page.
type BulkText struct {
	ColSelect    string // the checkbox column's heading (read by screen readers)
	SelectRow    string // %s: the task's title
	SelectAll    string // the script's toggle over the page's checkboxes
	Heading      string
	AllOnPage    string
	ActionLabel  string
	Actions      map[string]string // by views.BulkActions
	Assignee     string
	Reason       string // a cancel's
	AssignReason string // an assign's
	Submit       string
	Help         string

	NoSelection      string
	TooMany          string // %d: the limit
	PriorityRequired string
	DueRequired      string

	ResultTitle   string
	ResultAction  string            // %s: the action
	Outcomes      map[string]string // done, conflict, refused
	DoneCount     string            // %d: how many were done
	ConflictCount [2]string         // one, other
	RefusedCount  string            // %d: how many were refused
	ColTask       string
	ColOutcome    string
	ColDetails    string
	UnknownTask   string
	Changed       string // the reason of a conflict
	ReloadTask    string // %s: the title, read by screen readers only
	BackToList    string
}
