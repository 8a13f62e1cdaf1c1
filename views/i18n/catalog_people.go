package i18n

// PeopleText is the people picker's and the participant names' text (issue 10): the search
// of the assign form, its choices, the candidates list and the history's assignment line.
type PeopleText struct {
	SearchLabel   string
	SearchHelp    string
	SearchSubmit  string
	ChoicesLegend string
	NoMatches     string // "No one in the directory matches “%s”."
	More          string
	EnterID       string
	SearchInvalid string
	Unavailable   string
	Unnamed       string // "%s (ID)": an id shown because no name is known
	Group         string // "%s (group)"

	CandidatesHeading string
	CandidatesNone    string
	CandidateVia      string // "via %s": the group a snapshot member came from

	AssignedBy string // "Assigned to %s by %s"
	AssignedTo string // "Assigned to %s" (by the system)
}
