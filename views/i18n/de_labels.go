package i18n

var germanLabels = LabelsText{
	ConflictKept:      "Diese Aufgabe wurde geändert, seit Sie sie geöffnet haben; nichts wurde gespeichert. Ihre Eingaben bleiben unten erhalten; laden Sie neu, um den aktuellen Stand zu sehen.",
	StaleCompleted:    "Diese Aufgabe wurde von %s am %s abgeschlossen.",
	StaleCancelled:    "Diese Aufgabe wurde von %s am %s abgebrochen.",
	StaleTimedOut:     "Diese Aufgabe ist am %s abgelaufen.",
	StaleByYou:        "Ihnen",
	StaleBySomeone:    "dem Workflow",
	StaleNothingSaved: "Nichts von dem, was Sie gesendet haben, wurde gespeichert.",
}
