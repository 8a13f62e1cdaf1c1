package i18n

var germanPolicies = PoliciesText{
	Title:    "Standardfristen",
	Intro:    "Fristen, die jede neue Aufgabe eines Workflows erhält, wenn der Workflow keine eigenen festlegt. Eine Änderung gilt für danach angelegte Aufgaben; bestehende behalten ihre.",
	DashLink: "Standardfristen",

	ColWorkflow: "Workflow",
	ColPolicy:   "Standardfristen",
	ColChanged:  "Zuletzt geändert",
	NoPolicy:    "Keine",
	Edit:        "Bearbeiten",
	Empty:       "Noch kein Workflow hat Aufgaben oder Standardfristen.",

	OtherLegend: "Anderer Workflow",
	OtherLabel:  "ID der Workflow-Definition",
	OtherHelp:   "Für einen Workflow ohne Aufgaben: seine ID genau so, wie der Workflow sie sendet.",
	Open:        "Öffnen",

	EditTitle:  "Standardfristen: %s",
	IDLabel:    "ID der Workflow-Definition",
	Current:    "Aktuelle Standardfristen",
	NoneYet:    "Dieser Workflow hat keine Standardfristen: Seine Aufgaben erhalten keine, außer der Workflow legt sie fest.",
	ChangedBy:  "Revision %s, geändert von %s, %s",
	After:      "%s nach dem Anlegen der Aufgabe",
	At:         "am %s",
	JSONLabel:  "Fristen (JSON)",
	JSONHelp:   "Eine Liste von 1 bis 5 Fristen genau so, wie ein Workflow sie in seiner Projektion sendet: kind start (niemand hat die Aufgabe übernommen) oder completion (die Aufgabe ist noch offen), after (eine ISO-8601-Dauer wie PT4H oder P2D) oder at (ein Zeitpunkt) und 1 bis 5 Aktionen: notify (an managers, candidates, assignee oder eine Liste von Personen), reassign (candidateUsers, candidateGroups), set-priority (priority), flag.",
	Example:    "Beispiel",
	Save:       "Standardfristen speichern",
	Delete:     "Standardfristen entfernen",
	DeleteHelp: "Neue Aufgaben erhalten dann keine Standardfristen; bisher angelegte behalten ihre.",
	Back:       "Alle Standardfristen",

	ErrorsHead:  "Die Standardfristen wurden nicht gespeichert:",
	InvalidJSON: "Der Text ist keine JSON-Liste von Fristen (jede ein Objekt aus kind, after oder at und actions, ohne weitere Felder).",
	Conflict:    "Jemand hat diese Standardfristen inzwischen geändert. Laden Sie die Seite neu, um die andere Fassung zu sehen; Ihr Text bleibt unten erhalten.",

	HistoryCreated: "Mit den Standardfristen des Workflows erstellt (Revision %s)",

	AuditHead:     "Änderungen",
	AuditNone:     "Noch keine Änderungen.",
	AuditRevision: "Revision",
	AuditWhat:     "Was",
	AuditWho:      "Wer",
	AuditWhen:     "Wann",
	AuditPut:      "Gespeichert",
	AuditDelete:   "Entfernt",

	FlashSaved:   "Standardfristen gespeichert. Sie gelten für ab jetzt angelegte Aufgaben.",
	FlashDeleted: "Standardfristen entfernt.",
}
