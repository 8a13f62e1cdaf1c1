package i18n

var englishAssigneeFilter = AssigneeFilterText{
	Label:      "Assigned to",
	Unassigned: "Unassigned tasks only",
	Clear:      "Show every assignee",
	Invalid:    "The assignee filter of this link is not valid.",
}
