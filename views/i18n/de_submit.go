package i18n

var germanSubmit = SubmitText{
	CompletedBy: "Diese Aufgabe wurde von %s erledigt. Ihre Eingabe wurde nicht gespeichert.",
}
