package i18n

var germanGuest = GuestText{
	VerifyTitle:  "Ihre Aufgabe öffnen",
	VerifyCode:   "Geben Sie den 6-stelligen Code aus Ihrer Einladung ein, um die Aufgabe zu öffnen.",
	VerifyBearer: "Fahren Sie fort, um die Aufgabe zu öffnen, zu der Sie eingeladen wurden.",
	CodeLabel:    "Code",
	CodeHelp:     "6 Ziffern, mit dem Link an Sie gesendet.",
	Continue:     "Weiter",
	VerifyFailed: "Das hat nicht geklappt: Der Code ist falsch oder der Link ist nicht mehr gültig. Prüfen Sie den Code und versuchen Sie es erneut.",
	UsedTitle:    "Dieser Link wurde bereits verwendet",
	UsedText:     "Ihr Code ist richtig, aber die Aufgabe wurde mit diesem Link schon geöffnet, und ein Link funktioniert nur einmal. Wenn Sie noch antworten müssen, bitten Sie die Person, die ihn gesendet hat, um einen neuen Link.",

	TaskNote:       "Sie wurden eingeladen, diese Aufgabe zu erledigen.",
	AnswerHeading:  "Ihre Antwort",
	ConfirmLabel:   "Mir ist bewusst, dass das Absenden endgültig ist: Ich kann meine Antwort danach nicht mehr ändern.",
	ConfirmMissing: "Bestätigen Sie, dass das Absenden endgültig ist.",

	DoneTitle:  "Vielen Dank",
	DoneText:   "Ihre Antwort wurde übermittelt.",
	DoneTask:   "Aufgabe",
	DoneAnswer: "Ihre Antwort",
	DoneClose:  "Hier ist nichts mehr zu tun. Sie können dieses Fenster schließen.",

	InvalidTitle:     "Dieser Link ist nicht mehr gültig",
	InvalidText:      "Er ist vielleicht abgelaufen, wurde schon verwendet oder zurückgezogen. Bitten Sie die Person, die ihn gesendet hat, um einen neuen.",
	RateLimitedTitle: "Zu viele Versuche",
	RateLimitedText:  "Warten Sie einige Minuten und öffnen Sie dann den Link aus Ihrer Einladung erneut.",
	RefusedTitle:     "Diese Seite ist abgelaufen",
	RefusedText:      "Öffnen Sie den Link aus Ihrer Einladung erneut und wiederholen Sie Ihre Eingabe.",
	FailedTitle:      "Etwas ist schiefgelaufen",
	FailedText:       "Ihre Eingabe konnte nicht verarbeitet werden. Warten Sie einen Moment und versuchen Sie es erneut.",
}
