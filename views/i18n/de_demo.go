package i18n

var germanDemoUsers = DemoUsersText{
	Label:          "Zeigt",
	Manager:        "Die Sicht der Leitung: Übersicht, Braucht Aufmerksamkeit, Sammelaktionen, Zugriff prüfen und Gast-Einladungen",
	Assignee:       "Den Eingang eines Kandidaten: eine ihm zugewiesene Aufgabe (EXP-311) und INV-1042 zum Übernehmen unter Verfügbar",
	TwoGroups:      "Eine Kandidatin in zwei Gruppen (Finance, Purchasing), Antragstellerin von INV-1042, mit einer eigenen überfälligen Aufgabe",
	SnapshotMember: "Ein Mitglied einer Momentaufnahme-Gruppe: Die Prüfungsfreigabe gilt den Prüfern, wie sie zu Beginn waren",
	Excluded:       "Eine ausgeschlossene Person: in Finance, doch INV-1042 und TRV-88 schließen sie aus, sie sieht sie nicht",
	SecondTenant:   "Die Leitung des zweiten Mandanten (globex): Von acme ist hier nichts zu sehen",
	Overdue:        "Ein Bearbeiter mit einer überfälligen Aufgabe (DSC-3) und einer, die abläuft, wenn niemand handelt",
	NamedCandidate: "Eine Kandidatin mit Namen (Laptop einrichten) und über die Gruppe Support",
	SnapshotLegal:  "Ein Mitglied der Momentaufnahme-Gruppe Legal: die NDA-Prüfung, festgelegt auf die Gruppe, wie sie war",
}
