package i18n

import "usertasks/models"

var germanLabels = LabelsText{
	ConflictKept:      "Diese Aufgabe wurde geändert, seit Sie sie geöffnet haben; nichts wurde gespeichert. Ihre Eingaben bleiben unten erhalten; laden Sie neu, um den aktuellen Stand zu sehen.",
	StaleCompleted:    "Diese Aufgabe wurde von %s am %s abgeschlossen.",
	StaleCancelled:    "Diese Aufgabe wurde von %s am %s abgebrochen.",
	StaleTimedOut:     "Diese Aufgabe ist am %s abgelaufen.",
	StaleByYou:        "Ihnen",
	StaleBySomeone:    "dem Workflow",
	StaleNothingSaved: "Nichts von dem, was Sie gesendet haben, wurde gespeichert.",

	FormRequested:    "Angefordertes Formular",
	FormRef:          "„%s“, Version %s, vom Formularanbieter „%s“.",
	FormRefLatest:    "„%s“, neueste Version, vom Formularanbieter „%s“.",
	FormWhereFiles:   "Der Formularanbieter „%s“ liest den Ordner, den %s auf diesem Server nennt (<Ordner>/<Formular>/<Version>.json): Prüfen Sie, ob die Datei des Formulars dort liegt und gültig ist, und wiederholen Sie dann die Auflösung.",
	FormWhereUnknown: "Auf diesem Server ist kein Formularanbieter „%s“ eingerichtet. Der eingebaute Anbieter ist „%s“, eingerichtet mit %s; ein Anbieter mit anderem Namen wird von dem Programm hinzugefügt, das User Tasks einbettet. Richten Sie ihn ein oder lassen Sie den Workflow einen eingerichteten Anbieter nennen, und wiederholen Sie dann die Auflösung.",
	FormLastAttempt:  "Letzter Versuch",
	RetryFailedAgain: "Auflösung wiederholt, aber die Aufgabe ist weiterhin blockiert: Sie ist erneut fehlgeschlagen. %s",
	PriorityTitle:    "Priorität %s von 100",
	ZoneLabel:        "Ortszeit %s (%s)",
	AccessAssumed:    "Die Berechtigungen einer anderen Person sind hier nicht bekannt; es wird angenommen, dass sie hat, was jeder Schritt braucht: %s.",
	Quoted:           "„%s“",
	AccessFind:       "Person oder Gruppe",
	AccessFindHelp:   "Nach Namen suchen und dann aus den Ergebnissen wählen.",
	TaskTypes: map[string]string{
		"approval": "Freigabe", "review": "Prüfung", "verification": "Verifizierung", "sign-off": "Abnahme",
		"response": "Antwort", "triage": "Sichtung", "reconciliation": "Abstimmung", "renewal": "Verlängerung",
	},
	Permissions: map[string]string{
		"*":                         "alle Berechtigungen",
		"user-tasks:*":              "alle Aufgabenberechtigungen",
		"*:view":                    "alles ansehen",
		models.PermView:             "Aufgaben ansehen",
		models.PermClaim:            "Aufgaben übernehmen",
		models.PermComplete:         "Aufgaben abschließen",
		models.PermAssign:           "Aufgaben zuweisen",
		models.PermUpdate:           "Priorität und Fälligkeit ändern",
		models.PermCancel:           "Aufgaben abbrechen",
		models.PermInvite:           "Gäste einladen",
		models.PermSupervise:        "Aufgaben beaufsichtigen",
		models.PermParticipantsView: "Personen nachschlagen",
		models.PermRuntimeWrite:     "für die Workflow-Laufzeit handeln",
	},
	FormFailures: map[models.FormFailure]string{
		models.FormProviderUnknown: "Auf diesem Server ist kein Formularanbieter dieses Namens eingerichtet.",
		models.FormNotFound:        "Der Formularanbieter kennt dieses Formular oder diese Version nicht.",
		models.FormInvalid:         "Der Formularanbieter hat etwas geliefert, das kein gültiges Formular ist.",
		models.FormUnavailable:     "Der Formularanbieter hat nicht geantwortet: Er ist nicht erreichbar, hat zu lange gebraucht oder konnte das Formular nicht lesen.",
	},
}
