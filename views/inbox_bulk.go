package views

// ----- Bulk actions (the inbox's All and Needs attention tabs, managers) -----

// BulkToolbar is the bulk form above a manager's list: a checkbox per row (outside the form,
// tied to it by the form attribute, since rows hold forms of their own), "all on this page",
// the action and the fields it needs.
type BulkToolbar struct {
	Return      string            // the inbox URL the form came from and goes back to
	OperationID string            // fresh per render: a double submit replays
	Page        []BulkRowRef      // every row on the page, for "all on this page"
	Selected    map[string]bool   // rows checked when the form is shown again
	Form        BulkForm          // the values as submitted
	Errors      map[string]string // by input name; "form" for the whole form
	// PeopleEndpoint is the participants endpoint people.js suggests assignees from; empty
	// without a directory (the assignee is then typed as an ID, as it always can be).
	PeopleEndpoint string
}

// BulkRowRef names a row for the form: its value is "<revision>:<task id>".
type BulkRowRef struct {
	ID       string
	Revision int
	Title    string
}

// BulkForm holds the submitted values, kept as typed.
type BulkForm struct {
	Action   string // one of BulkActions
	AllPage  bool
	Assignee string
	Priority string
	Due      string
	Reason   string
}

// BulkActions are the choices of the action select, in order: change priority and reschedule
// are the same command with different fields.
var BulkActions = []string{"assign", "priority", "reschedule", "retry-resolution", "cancel"}

// BulkResultPage is GET /tasks/bulk/:id: every item of a bulk request with its outcome.
type BulkResultPage struct {
	Chrome
	Action                   string // one of BulkActions
	Items                    []BulkResultItem
	Done, Conflicts, Refused int
	BackHref                 string
}

// BulkResultItem is one task's outcome. Title is empty for a task the person cannot see.
type BulkResultItem struct {
	Href    string // the task page; empty for a task not found
	Title   string
	Outcome string // done, conflict, refused
	Reason  string // the translated reason of a conflict or refusal
}
