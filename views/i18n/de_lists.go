package i18n

var germanLists = ListsText{
	StatusOpen:         "Offen",
	StatusOpenHint:     "Nicht zugewiesen: niemand kann sie übernehmen, ein Manager weist sie zu. Verfügbar: ihre Kandidaten können sie übernehmen.",
	StatusWorkflow:     "In Bearbeitung durch den Workflow",
	StatusWorkflowHint: "Übermittelt, läuft ab oder wird abgebrochen: wartet auf die Bestätigung des Workflows, dann wird sie geschlossen.",
	StatusClosed:       "Geschlossen",
}
