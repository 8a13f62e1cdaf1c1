package views

// InboxAssignee is the inbox's assignee filter as its URL carries it: Value is "none" or
// "<type>:<id>" (models.ParseAssigneeFilter), Provider the optional assigneeProvider.
type InboxAssignee struct {
	Value    string
	Provider string
}

// AssigneeChip shows the active assignee filter by name, with a link to the list without it.
type AssigneeChip struct {
	Name       string // the assignee's name; empty for unassigned tasks
	Unassigned bool
	ClearHref  string
	Error      string // the filter is malformed
}
