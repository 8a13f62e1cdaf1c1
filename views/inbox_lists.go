package views

// InboxLists are the inbox's list controls beside the plain filters (inbox_lists.templ):
// sortable column headers, the workflow choices and the saved views.
type InboxLists struct {
	// Sorts are the sortable columns by key (title, priority, due or completed, updated).
	Sorts map[string]SortHeader
	// Workflows are the workflow choices of the select; nil shows a free-text input instead.
	Workflows []Option
	// Saved is the saved views bar; nil when the inbox has no saved views service.
	Saved *SavedViewsBar
}

// SortHeader is a column header's sort link: Href sorts by the column (the other direction
// when it is the current sort), Sorted is the current direction ("ascending", "descending")
// or "" when the list is not sorted by the column.
type SortHeader struct {
	Href   string
	Sorted string
}

// SavedViewsBar is the saved views menu of the inbox and its save form.
type SavedViewsBar struct {
	Views    []Option // value: the view id; Selected: the view the page shows
	Save     SaveViewForm
	CanShare bool
	Full     bool // the person keeps the most views allowed
	Limit    int
}

// SaveViewForm is the save form's state: the normalized query of the page, and what was
// submitted with the messages by input name when it was refused.
type SaveViewForm struct {
	Query  string
	Name   string
	Shared bool
	Errors map[string]string
}

// ManageViewsPage is /inbox/views: the views a person may open, with rename and delete.
type ManageViewsPage struct {
	Chrome
	Rows []SavedViewRow
}

// SavedViewRow is one saved view of the manage page.
type SavedViewRow struct {
	ID        string
	Name      string
	Href      string // opens the view
	Owner     string // the owner's name; empty when it is the viewer
	Shared    bool
	CanRename bool
	CanDelete bool
	Rename    string // the rename input's value
	Error     string // the rename's refusal
}
