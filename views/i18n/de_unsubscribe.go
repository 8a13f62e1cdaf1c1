package i18n

var germanUnsubscribe = UnsubscribeText{
	Title:            "E-Mails abbestellen",
	Confirm:          "Keine E-Mails mehr für „%s“?",
	ConfirmText:      "Sie erhalten keine E-Mail mehr, wenn das geschieht.",
	DigestConfirm:    "Keine Benachrichtigungs-E-Mails mehr?",
	DigestText:       "Sie erhalten weder die Zusammenfassung noch einzelne E-Mails zu Benachrichtigungen.",
	Button:           "Abbestellen",
	DoneTitle:        "Abbestellt",
	Done:             "Sie erhalten keine E-Mails mehr für „%s“.",
	DigestDone:       "Sie erhalten keine Benachrichtigungs-E-Mails mehr.",
	AlreadyOff:       "E-Mails für „%s“ sind ausgeschaltet.",
	DigestAlreadyOff: "Benachrichtigungs-E-Mails sind ausgeschaltet.",
	InAppStays:       "Benachrichtigungen erscheinen weiterhin in der Anwendung. In Ihren Benachrichtigungseinstellungen können Sie E-Mails wieder einschalten.",
	Settings:         "Benachrichtigungseinstellungen",
	InvalidTitle:     "Dieser Link funktioniert nicht",
	InvalidText:      "Der Abbestell-Link ist ungültig. Melden Sie sich an und wählen Sie in Ihren Benachrichtigungseinstellungen, welche E-Mails Sie erhalten.",
}
