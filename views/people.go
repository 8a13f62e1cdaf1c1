package views

// PeoplePicker is a searchable people picker (issue 10): a plain GET search form on the page
// whose results become a form's choices; static/people.js enhances it with suggestions from
// the participants endpoint. The assign form, Delegate and the Out of office pages use it.
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

	// Prefix tells the pickers of one page apart: "" is the assign form's, whose search is
	// the parameter people; another picker prefixes its parameters, element ids and test ids
	// ("delegate-" → delegate-people, delegate-people-q, delegate-people-choices).
	Prefix string
	// Field is the name the chosen person is posted as ("assignee", "to", "substitute");
	// Target the id of the form's ID field, and of its message with "-error".
	Field, Target string
	// Pick is the parameter the script puts a suggestion's id in when it searches for them
	// (default Prefix+"pick": the page lists them, chosen).
	Pick string
	// Label names the search landmark when a page has more than one ("" the plain label).
	Label string
	// Keep are parameters the search carries along (the person a manager's page is about).
	Keep []HiddenInput
}

// HiddenInput is a hidden field of a form.
type HiddenInput struct{ Name, Value string }

// Param is the search's query parameter.
func (p *PeoplePicker) Param() string { return p.Prefix + "people" }

// PickParam is the parameter a suggestion's id comes back in.
func (p *PeoplePicker) PickParam() string {
	if p.Pick != "" {
		return p.Pick
	}
	return p.Prefix + "pick"
}

// ID is a picker element's id or test id, prefixed.
func (p *PeoplePicker) ID(s string) string { return p.Prefix + s }

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
