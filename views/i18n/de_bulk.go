package i18n

var germanBulk = BulkText{
	ColSelect:   "Auswahl",
	SelectRow:   "„%s“ auswählen",
	SelectAll:   "Alle auf dieser Seite auswählen",
	Heading:     "Sammelaktion",
	AllOnPage:   "Alle Aufgaben auf dieser Seite",
	ActionLabel: "Aktion",
	Actions: map[string]string{
		"assign": "Zuweisen", "priority": "Priorität ändern", "reschedule": "Neu terminieren",
		"retry-resolution": "Auflösung wiederholen", "cancel": "Abbrechen",
	},
	Assignee:     "Zuweisen an (Benutzer-ID)",
	Reason:       "Begründung (erforderlich)",
	AssignReason: "Begründung (optional)",
	Submit:       "Auf Auswahl anwenden",
	Help:         "Jede Aufgabe wird einzeln geändert; inzwischen geänderte Aufgaben bleiben unverändert und werden gemeldet.",

	NoSelection:      "Wählen Sie mindestens eine Aufgabe oder alle Aufgaben auf dieser Seite.",
	TooMany:          "Wählen Sie höchstens %d Aufgaben.",
	PriorityRequired: "Geben Sie eine Priorität ein.",
	DueRequired:      "Geben Sie ein Fälligkeitsdatum ein.",

	ResultTitle:   "Ergebnis der Sammelaktion",
	ResultAction:  "Aktion: %s",
	Outcomes:      map[string]string{"done": "Erledigt", "conflict": "Konflikt", "refused": "Abgelehnt"},
	DoneCount:     "%d erledigt",
	ConflictCount: [2]string{"%d Konflikt", "%d Konflikte"},
	RefusedCount:  "%d abgelehnt",
	ColTask:       "Aufgabe",
	ColOutcome:    "Ergebnis",
	ColDetails:    "Details",
	UnknownTask:   "Eine Aufgabe, die es nicht mehr gibt oder die Sie nicht sehen können",
	Changed:       "Sie wurde nach Ihrer Auswahl geändert und blieb unverändert.",
	ReloadTask:    "Aufgabe neu laden",
	BackToList:    "Zurück zur Liste",
}
