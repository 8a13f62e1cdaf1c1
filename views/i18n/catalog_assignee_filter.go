package i18n

// AssigneeFilterText is the text of the inbox's assignee filter.
type AssigneeFilterText struct {
	Label      string // before the assignee's name
	Unassigned string // the filter for tasks without an assignee
	Clear      string // the link that removes the filter
	Invalid    string // a malformed assignee in the URL
}
