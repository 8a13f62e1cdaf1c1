package i18n

var germanInvitations = InvitationsText{
	Heading:          "Gastlinks",
	Help:             "Senden Sie einen Einmal-Link an jemanden ohne Konto. Der Gast kann nur diese Aufgabe öffnen und erledigen.",
	DefinitionLabel:  "Art des Links",
	VerifierCode:     "Link und 6-stelliger Code",
	VerifierBearer:   "Nur Link",
	DefinitionOption: "%s: %s",
	RecipientsLabel:  "Empfänger",
	RecipientsHelp:   "Einer pro Zeile. Mehrere Empfänger teilen sich eine Aufgabe: Wer den Link zuerst öffnet, erhält sie; die anderen Links werden ungültig.",
	RecipientsEmail:  "E-Mail-Adressen, eine pro Zeile. Mehrere Empfänger teilen sich eine Aufgabe: Wer den Link zuerst öffnet, erhält sie; die anderen Links werden ungültig.",
	ActionsLegend:    "Erlaubte Aktionen",
	ActionsHelp:      "Lassen Sie alle leer, um jede Aktion dieser Art von Link zu erlauben.",
	BearerLabel:      "Nur den Link senden, ohne Code",
	Submit:           "Gastlink senden",

	ListHeading: "Versendete Gastlinks",
	None:        "Noch keine Gastlinks.",
	Recipient:   "Empfänger",
	Status:      "Stand",
	Attempts:    "Zustellversuche: %s",
	LastError:   "Letzter Fehler: %s",
	Expires:     "Gültig bis %s",
	Group:       "Zusammen mit anderen Empfängern versendet.",
	Revoke:      "Widerrufen",
	RevokeLabel: "Gastlink für %s widerrufen",

	Issued:     "Wartet auf Versand",
	Dispatched: "Versendet",
	Verified:   "Vom Gast geöffnet",
	Consumed:   "Verwendet",
	Expired:    "Abgelaufen",
	Revoked:    "Widerrufen",
	Failed:     "Versand fehlgeschlagen",

	FlashIssued:  "Der Gastlink wurde erstellt und wird in Kürze versendet.",
	FlashRevoked: "Der Gastlink wurde widerrufen. Er funktioniert nicht mehr.",

	GuestNamed: "%s (Gast)",
	Guest:      "Gast",
}
