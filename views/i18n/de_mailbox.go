package i18n

var germanMailbox = MailboxText{
	Title:     "Entwicklungs-Postfach",
	DevTool:   "Entwicklungswerkzeug",
	DevNote:   "Diese Seite gibt es nur im Entwicklungsmodus. Sie zeigt die an Gäste dieses Mandanten gesendeten Einladungen, die neuesten zuerst, so wie die Gäste sie erhalten würden. Sie liegen nur im Speicher: Ein Neustart leert das Postfach.",
	Empty:     "Seit dem Start des Servers wurde keine Einladung gesendet.",
	Caption:   "Gesendete Einladungen, die neuesten zuerst",
	Sent:      "Gesendet",
	Recipient: "Empfänger",
	Link:      "Link",
	OpenLink:  "Gast-Link öffnen",
	Code:      "Code",
	NoCode:    "keiner (nur Link)",
	Expires:   "Läuft ab",
	About:     "etwa %s",
}
