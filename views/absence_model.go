package views

import "time"

// AbsencePage is an Out of office page (SPEC 10.5): one's own (/settings/absence), or a
// manager's for a person of the tenant (/manage/people/absence?user=…).
type AbsencePage struct {
	Chrome
	Heading string
	Intro   string
	// TeamHref is the managers' page, linked from a manager's own page ("" elsewhere).
	TeamHref string
	// Finder chooses the person on the managers' page before one is chosen; nil otherwise.
	Finder *PersonFinder
	// BackHref leads from a person's page back to the finder ("" on one's own page).
	BackHref string
	// The absence shown and set: nil until there is one to show (Form is nil on the finder).
	Current *AbsenceNow
	Form    *AbsenceForm
	Remove  *AbsenceRemove
}

// PersonFinder is the managers' choice of whose absence to set: the people picker with a
// directory (its choices open the person's page), else the person's ID typed.
type PersonFinder struct {
	Action string // the page, searched with GET
	People *PeoplePicker
	ID     string
	Error  string
}

// AbsenceNow is the stored absence in words.
type AbsenceNow struct {
	From, Until time.Time
	Substitute  string // the substitute's name
	State       AbsenceState
}

// AbsenceState says where the database clock stands in an absence.
type AbsenceState string

const (
	AbsenceActive  AbsenceState = "active"
	AbsencePlanned AbsenceState = "planned"
	AbsenceEnded   AbsenceState = "ended"
)

// AbsenceForm sets the absence: from and until as datetime-local values in the page's zone,
// the substitute chosen with the picker (typed as an ID without a directory).
type AbsenceForm struct {
	Action      string
	Hidden      []HiddenInput // the person of the managers' page
	From, Until string
	Substitute  string
	Errors      map[string]string // from, until, substitute, form
	People      *PeoplePicker
}

// AbsenceRemove ends the absence.
type AbsenceRemove struct {
	Action string
	Hidden []HiddenInput
}

// AwayBanner is the absent user's own inbox while the absence is active: until when, and who
// receives their new tasks.
type AwayBanner struct {
	Until      time.Time
	Substitute string
	Href       string // the Out of office page
}

// absenceStateLabel is an absence's state in words.
func absenceStateLabel(c Chrome, s AbsenceState) string {
	switch s {
	case AbsenceActive:
		return c.T.Delegation.StateActive
	case AbsencePlanned:
		return c.T.Delegation.StatePlanned
	}
	return c.T.Delegation.StateEnded
}
