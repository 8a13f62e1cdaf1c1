package views

// DelegateForm is the task page's Delegate (SPEC 10.5): the assignee, or a manager, hands the
// task to a person chosen with the people picker (typed as an ID without a directory).
type DelegateForm struct {
	Command
	To     string // the chosen person's id, as posted
	Reason string
	Errors map[string]string // to, reason, form
	People *PeoplePicker     // nil without a directory
	Open   bool              // the section starts open: a search ran or a post was refused
}

// ReturnForm is the delegate's Return: the task goes back to To, who delegated it.
type ReturnForm struct {
	Command
	To string // the delegator's name
}
