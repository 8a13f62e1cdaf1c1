package i18n

var englishPolicies = PoliciesText{
	Title:    "Default deadlines",
	Intro:    "Deadlines every new task of a workflow gets when the workflow declares none of its own. A change applies to tasks created afterwards; existing tasks keep theirs.",
	DashLink: "Default deadlines",

	ColWorkflow: "Workflow",
	ColPolicy:   "Default deadlines",
	ColChanged:  "Last changed",
	NoPolicy:    "None",
	Edit:        "Edit",
	Empty:       "No workflow has tasks or default deadlines yet.",

	OtherLegend: "Another workflow",
	OtherLabel:  "Workflow definition id",
	OtherHelp:   "For a workflow without tasks yet: its id exactly as the workflow sends it.",
	Open:        "Open",

	EditTitle:  "Default deadlines: %s",
	IDLabel:    "Workflow definition id",
	Current:    "Current default deadlines",
	NoneYet:    "This workflow has no default deadlines: its tasks get none unless the workflow declares them.",
	ChangedBy:  "Revision %s, changed by %s, %s",
	After:      "%s after the task is created",
	At:         "at %s",
	JSONLabel:  "Deadlines (JSON)",
	JSONHelp:   "A list of 1 to 5 deadlines exactly as a workflow sends them in its projection: kind start (nobody took the task) or completion (the task is still open), after (an ISO 8601 duration such as PT4H or P2D) or at (a time), and 1 to 5 actions: notify (to managers, candidates, assignee or a list of people), reassign (candidateUsers, candidateGroups), set-priority (priority), flag.",
	Example:    "Example",
	Save:       "Save default deadlines",
	Delete:     "Remove default deadlines",
	DeleteHelp: "New tasks then get no default deadlines; tasks created so far keep theirs.",
	Back:       "All default deadlines",

	ErrorsHead:  "The default deadlines were not saved:",
	InvalidJSON: "The text is not a JSON list of deadlines (each an object of kind, after or at, and actions, without other members).",
	Conflict:    "Someone changed these default deadlines meanwhile. Reload the page to see their version; your text is kept below.",

	HistoryCreated: "Created with the workflow's default deadlines (revision %s)",

	AuditHead:     "Changes",
	AuditNone:     "No changes yet.",
	AuditRevision: "Revision",
	AuditWhat:     "What",
	AuditWho:      "Who",
	AuditWhen:     "When",
	AuditPut:      "Saved",
	AuditDelete:   "Removed",

	FlashSaved:   "Default deadlines saved. They apply to tasks created from now on.",
	FlashDeleted: "Default deadlines removed.",
}
