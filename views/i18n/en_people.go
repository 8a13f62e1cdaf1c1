package i18n

var englishPeople = PeopleText{
	SearchLabel:   "Find a person",
	SearchHelp:    "Search the directory by name or ID.",
	SearchSubmit:  "Search",
	ChoicesLegend: "Choose a person",
	NoMatches:     "No one in the directory matches “%s”.",
	More:          "More people match. Narrow the search to see them.",
	EnterID:       "Enter an ID instead",
	SearchInvalid: "The search contains characters that cannot be searched.",
	Unavailable:   "The directory could not be searched. Try again, or enter an ID.",
	Unnamed:       "%s (ID)",
	Group:         "%s (group)",

	CandidatesHeading: "Candidates",
	CandidatesNone:    "No candidates.",
	CandidateVia:      "via %s",

	AssignedBy: "Assigned to %s by %s",
	AssignedTo: "Assigned to %s",
}
