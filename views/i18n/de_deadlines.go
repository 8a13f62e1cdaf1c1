package i18n

import "usertasks/models"

var germanDeadlines = DeadlinesText{
	Heading:        "Fristen",
	Intro:          "Handelt niemand rechtzeitig, eskaliert die Aufgabe von selbst, wie der Workflow es festgelegt hat.",
	Start:          "Übernahmefrist",
	Completion:     "Erledigungsfrist",
	StartHelp:      "Greift, wenn bis dahin niemand die Aufgabe übernommen hat.",
	CompletionHelp: "Greift, wenn die Aufgabe bis dahin noch offen ist.",
	Numbered:       "%s %s",

	DueLabel:     "Fällig",
	StateLabel:   "Stand",
	ActionsLabel: "Was passiert",
	Pending:      "Ausstehend",
	Fired:        "Ausgelöst",
	Skipped:      "Nicht nötig",

	NotifyManagers:   "Die Manager benachrichtigen",
	NotifyCandidates: "Die Kandidaten benachrichtigen",
	NotifyAssignee:   "Den Bearbeiter benachrichtigen",
	NotifyNamed:      [2]string{"%d benannte Person benachrichtigen", "%d benannte Personen benachrichtigen"},
	Reassign:         "Neu zuweisen an %s",
	ReassignRelease:  "Den Bearbeiter entbinden und neu zuweisen an %s",
	ReassignNobody:   "Die Kandidaten entfernen",
	SetPriority:      "Die Priorität auf %s setzen",
	Flag:             "Die Aufgabe als „Frist verpasst“ markieren",

	HistoryFired: "Frist %s (%s) verstrichen: %s",
	KindWords: map[models.DeadlineKind]string{
		models.DeadlineStart:      "Übernahme",
		models.DeadlineCompletion: "Erledigung",
	},
	ActionWords: map[models.DeadlineActionType]string{
		models.DeadlineNotify:      "benachrichtigt",
		models.DeadlineReassign:    "neu zugewiesen",
		models.DeadlineSetPriority: "Priorität geändert",
		models.DeadlineFlag:        "markiert",
	},
	ListJoin: ", ",

	DashHead:     "Eskalationen der letzten %d Tage je Workflow",
	DashWorkflow: "Workflow",
	DashCount:    "Anzahl",
	DashNone:     "In den letzten %d Tagen ist keine Frist ausgelöst worden.",
}
