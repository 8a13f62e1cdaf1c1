package i18n

import "usertasks/models"

var englishDeadlines = DeadlinesText{
	Heading:        "Deadlines",
	Intro:          "If nobody acts in time, the task escalates by itself as the workflow declared.",
	Start:          "Start deadline",
	Completion:     "Completion deadline",
	StartHelp:      "Applies if nobody has taken the task by then.",
	CompletionHelp: "Applies if the task is still open by then.",
	Numbered:       "%s %s",

	DueLabel:     "Due",
	StateLabel:   "State",
	ActionsLabel: "What happens",
	Pending:      "Pending",
	Fired:        "Fired",
	Skipped:      "Not needed",

	NotifyManagers:   "Notify the managers",
	NotifyCandidates: "Notify the candidates",
	NotifyAssignee:   "Notify the assignee",
	NotifyNamed:      [2]string{"Notify %d named participant", "Notify %d named participants"},
	Reassign:         "Reassign to %s",
	ReassignRelease:  "Release the assignee and reassign to %s",
	ReassignNobody:   "Remove the candidates",
	SetPriority:      "Set the priority to %s",
	Flag:             "Flag the task as “Deadline missed”",

	HistoryFired: "Deadline %s (%s) passed: %s",
	KindWords: map[models.DeadlineKind]string{
		models.DeadlineStart:      "start",
		models.DeadlineCompletion: "completion",
	},
	ActionWords: map[models.DeadlineActionType]string{
		models.DeadlineNotify:      "notified",
		models.DeadlineReassign:    "reassigned",
		models.DeadlineSetPriority: "priority changed",
		models.DeadlineFlag:        "flagged",
	},
	ListJoin: ", ",

	DashHead:     "Escalations, last %d days, per workflow",
	DashWorkflow: "Workflow",
	DashCount:    "Count",
	DashNone:     "No deadline fired in the last %d days.",
}
