package views

// AccessPage is /tasks/{id}/access: the Manage panel's "Check access" form and, once asked, why
// the participant can or cannot view, claim and complete the task.
type AccessPage struct {
	Chrome
	TaskTitle string
	TaskHref  string
	Form      AccessForm
	Result    *AccessResult // nil until a participant was asked about
}

// AccessForm is the GET form naming the participant.
type AccessForm struct {
	Action string // the task's /access path
	Type   string // "user" or "group"
	ID     string
	Error  string // translated; the participant could not be read

	// The people picker, when a directory can be searched: the search, its results as choices
	// (users and groups by name; the value is "type:id") and what went wrong with it.
	FindPeople  bool
	People      string
	Searched    bool
	Choices     []AccessChoice
	PeopleError string
}

// AccessChoice is one participant found for "Check access".
type AccessChoice struct {
	Value   string // "user:ann", "group:finance"
	Label   string // the name, groups marked as groups
	Checked bool
}

// AccessResult is one explanation, every sentence translated.
type AccessResult struct {
	Participant string // the participant's name, else id
	Premises    []AccessStep
	Decisions   []AccessDecision // view, claim, complete
}

// AccessDecision is one operation's answer and the steps that led to it.
type AccessDecision struct {
	Key     string // view, claim, complete (for test hooks)
	Label   string
	Allowed bool
	Steps   []AccessStep
}

// AccessStep is one rule as a sentence, with its effect: allow, deny or note.
type AccessStep struct {
	Rule   string
	Effect string
	Text   string
	Detail string // the codes the sentence names (permissions), for the manager's tooltip
}

// accessIcon is the icon of a step's effect; the sentence says the same in words.
func accessIcon(effect string) string {
	switch effect {
	case "allow":
		return "check"
	case "deny":
		return "cancelled"
	}
	return "info"
}
