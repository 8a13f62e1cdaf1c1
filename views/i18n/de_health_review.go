package i18n

import "usertasks/models"

var germanHealthReview = HealthReviewText{
	Meanings: map[string]string{
		models.HealthNoParticipants:              "Niemand kann diese Aufgabe bearbeiten: Sie hat keinen Bearbeiter, keine Kandidaten und keine Gasteinladungen.",
		models.HealthSnapshotResolutionFailed:    "Die Kandidatengruppen der Aufgabe konnten nicht in ihre Mitglieder aufgelöst werden; aus diesen Gruppen sieht sie noch niemand.",
		models.HealthSnapshotDirectoryMissing:    "Die Aufgabe löst ihre Kandidatengruppen in Mitglieder auf, aber es gibt kein Teilnehmerverzeichnis, in dem sie nachgeschlagen werden könnten.",
		models.HealthFormProviderMissing:         "Das Formular der Aufgabe stammt von einem Formularanbieter, den dieser Dienst nicht kennt; es kann nicht angezeigt werden.",
		models.HealthFormResolutionFailed:        "Das Formular der Aufgabe konnte nicht von seinem Formularanbieter geladen werden, oder das Geladene ist kein gültiges Formular.",
		models.HealthStaleTransition:             "Die Aufgabe wurde hier abgeschlossen, ist abgelaufen oder wurde abgebrochen, aber der Workflow hat das noch nicht bestätigt.",
		models.HealthResumeDeliveryFailing:       "Das Ergebnis der Aufgabe hat den Workflow nicht erreicht: Jede Zustellung ist bisher fehlgeschlagen.",
		models.HealthInvitationDeliveryFailing:   "Eine Gasteinladung dieser Aufgabe konnte ihrem Empfänger nicht zugestellt werden.",
		models.HealthNotificationDeliveryFailing: "Eine Benachrichtigung zu dieser Aufgabe ist endgültig gescheitert: Jemand wurde nicht per E-Mail, nicht über den Benachrichtigungs-Webhook oder gar nicht informiert.",
		models.HealthRuntimeAnswerAmbiguous:      "Der Abgleich hat die Workflow-Laufzeit nach dieser Aufgabe gefragt und eine unklare Antwort bekommen; die Aufgabe blieb, wie sie war.",
		models.HealthDeadlineMissed:              "Eine Start- oder Abschlussfrist dieser Aufgabe ist verstrichen und hat ihre Eskalation ausgelöst.",
	},
	Causes: map[string]string{
		models.HealthNoParticipants:              "Der Workflow hat die Aufgabe ohne Bearbeiter, Kandidaten, Gruppen oder Einladungen angelegt.",
		models.HealthSnapshotResolutionFailed:    "Das Teilnehmerverzeichnis ist beim Anlegen der Aufgabe ausgefallen oder hat nicht geantwortet.",
		models.HealthSnapshotDirectoryMissing:    "Auf diesem Server ist kein Teilnehmerverzeichnis eingerichtet.",
		models.HealthFormProviderMissing:         "Der Workflow nennt einen Formularanbieter, der auf diesem Server nicht eingerichtet ist.",
		models.HealthFormResolutionFailed:        "Der Formularanbieter ist ausgefallen, hat nicht geantwortet oder ein fehlerhaftes Schema geliefert.",
		models.HealthStaleTransition:             "Die Workflow-Laufzeit hat das Lesezeichen der Aufgabe nicht entfernt: Sie ist vielleicht nicht erreichbar, langsam oder scheitert am Ergebnis.",
		models.HealthResumeDeliveryFailing:       "Die Workflow-Laufzeit ist nicht erreichbar oder weist das Ergebnis zurück (Adresse, Geheimnis und Protokolle prüfen).",
		models.HealthInvitationDeliveryFailing:   "Der Zustellweg der Einladung ist ausgefallen oder hat die Adresse des Empfängers abgelehnt.",
		models.HealthNotificationDeliveryFailing: "Der Mailserver hat die Adresse abgelehnt oder war nicht erreichbar, der Webhook-Empfänger ist wiederholt gescheitert oder das Verzeichnis hat nicht geantwortet – bei jedem Versuch (die Meldung des Befunds in der API nennt den Weg; die Seite der Hintergrundläufe zeigt die Fehlschläge).",
		models.HealthRuntimeAnswerAmbiguous:      "Die Laufzeit hat mit einem Fehler geantwortet oder mit einem 404, das nicht ihr eigenes „Lesezeichen nicht gefunden“ war (ein Proxy, ein falscher Pfad).",
		models.HealthDeadlineMissed:              "Niemand hat die Aufgabe rechtzeitig übernommen oder rechtzeitig erledigt (die Fristen, die der Workflow festgelegt hat).",
	},
	Remedies: map[models.Remedy]string{
		models.RemedyRetryResolution: "Beheben Sie die Ursache und wiederholen Sie dann die Auflösung: Der Dienst lädt das Formular und löst die Gruppen erneut auf.",
		models.RemedyAssign:          "Weisen Sie die Aufgabe jemandem zu, der sie bearbeiten kann.",
		models.RemedyCancel:          "Wenn die Workflow-Instanz nicht mehr auf diese Aufgabe wartet, brechen Sie sie ab.",
		models.RemedyWait:            "Hier ist nichts zu tun: Der Dienst versucht es selbst weiter. Warten Sie, oder prüfen Sie die Workflow-Laufzeit.",
		models.RemedyCheckDelivery:   "An der Aufgabe ist nichts zu tun: Beheben Sie den Fehler des Zustellwegs. Der Befund verschwindet, sobald die nächste Benachrichtigung der Aufgabe über diesen Weg zugestellt ist.",
	},
	Buttons: map[models.Remedy]string{
		models.RemedyRetryResolution: "Auflösung wiederholen",
		models.RemedyAssign:          "Zuweisen",
		models.RemedyCancel:          "Aufgabe abbrechen",
	},
	UnknownMeaning: "Die Aufgabe hat einen Befund, den diese Seite nicht beschreiben kann.",
	UnknownCause:   "Ihr Verlauf verrät vielleicht mehr.",
	WhyLabel:       "Ursache",
	FixLabel:       "Was hilft",

	CodeFilter:     "Befund",
	SeverityFilter: "Schwere",
	AnySeverity:    "Jede Schwere",

	ReasonsLabel:          "Braucht Aufmerksamkeit, weil",
	ReasonOverdue:         "Überfällig",
	ReasonStaleSince:      "Wartet auf den Workflow seit",
	ReasonUnassignedSince: "Nicht zugewiesen seit",
}
