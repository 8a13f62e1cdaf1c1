package i18n

var germanPeople = PeopleText{
	SearchLabel:   "Person suchen",
	SearchHelp:    "Suchen Sie im Verzeichnis nach Name oder ID.",
	SearchSubmit:  "Suchen",
	ChoicesLegend: "Person auswählen",
	NoMatches:     "Niemand im Verzeichnis passt zu „%s“.",
	More:          "Es passen weitere Personen. Grenzen Sie die Suche ein, um sie zu sehen.",
	EnterID:       "Stattdessen eine ID eingeben",
	SearchInvalid: "Die Suche enthält Zeichen, nach denen nicht gesucht werden kann.",
	Unavailable:   "Das Verzeichnis konnte nicht durchsucht werden. Versuchen Sie es erneut oder geben Sie eine ID ein.",
	Unnamed:       "%s (ID)",
	Group:         "%s (Gruppe)",

	CandidatesHeading: "Kandidaten",
	CandidatesNone:    "Keine Kandidaten.",
	CandidateVia:      "über %s",

	AssignedBy: "Zugewiesen an %s von %s",
	AssignedTo: "Zugewiesen an %s",
}
