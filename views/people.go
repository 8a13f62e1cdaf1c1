package views

// PeoplePicker is the assign form's searchable people picker (issue 10): a plain GET search
// form on the task page whose results become the assign form's choices; static/people.js
// enhances it with suggestions from the participants endpoint.
type PeoplePicker struct {
	Action    string // the task page, searched with GET
	Tab       string // the section to stay on; "" for the Task section
	Query     string
	Searched  bool // a search ran: show its choices or "no matches"
	Choices   []PersonChoice
	More      bool   // the directory has more matches than are shown
	Error     string // the search was refused or the directory failed
	ClearHref string // the page without the search: the ID field again
	Endpoint  string // the participants endpoint, for the script
}

// PersonChoice is one search result: a user the manager may pick.
type PersonChoice struct {
	ID      string
	Label   string // the name, or the id marked as one
	Named   bool
	Checked bool
}

// CandidateList is the candidates of a task, for managers: users and groups by name,
// snapshot members with the group they came from.
type CandidateList struct {
	Items []CandidateRow
}

// CandidateRow is one candidate.
type CandidateRow struct {
	Label string // the name, or the id marked as one
	Group bool
	Via   string // the source group's label, for snapshot members
}
