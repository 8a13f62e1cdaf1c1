package i18n

var englishBulk = BulkText{
	ColSelect:   "Select",
	SelectRow:   "Select “%s”",
	SelectAll:   "Select all on this page",
	Heading:     "Bulk action",
	AllOnPage:   "All tasks on this page",
	ActionLabel: "Action",
	Actions: map[string]string{
		"assign": "Assign", "priority": "Change priority", "reschedule": "Reschedule",
		"retry-resolution": "Retry resolution", "cancel": "Cancel",
	},
	Assignee:     "Assign to (user ID)",
	Reason:       "Reason (required)",
	AssignReason: "Reason (optional)",
	Submit:       "Apply to selected",
	Help:         "Each task is changed on its own; tasks changed meanwhile are left alone and reported.",

	NoSelection:      "Select at least one task, or all tasks on this page.",
	TooMany:          "Select at most %d tasks.",
	PriorityRequired: "Enter a priority.",
	DueRequired:      "Enter a due date.",

	ResultTitle:   "Bulk action result",
	ResultAction:  "Action: %s",
	Outcomes:      map[string]string{"done": "Done", "conflict": "Conflict", "refused": "Refused"},
	DoneCount:     "%d done",
	ConflictCount: [2]string{"%d conflict", "%d conflicts"},
	RefusedCount:  "%d refused",
	ColTask:       "Task",
	ColOutcome:    "Outcome",
	ColDetails:    "Details",
	UnknownTask:   "A task that no longer exists or that you cannot see",
	Changed:       "It changed after you selected it and was left as it is.",
	ReloadTask:    "Reload task",
	BackToList:    "Back to the list",
}
