package i18n

var englishLists = ListsText{
	StatusOpen:         "Open",
	StatusOpenHint:     "Unassigned: no one may claim it; a manager assigns it. Available: its candidates may claim it.",
	StatusWorkflow:     "In progress with the workflow",
	StatusWorkflowHint: "Submitted, timing out or being cancelled: waiting for the workflow to confirm before it closes.",
	StatusClosed:       "Closed",
}
