package views

// The managers' default deadline pages (issue 30 item 4): typed view models of
// /manage/deadline-policies and of one workflow definition's page.

// PolicyListPage is /manage/deadline-policies: the tenant's workflow definitions with their
// default deadlines.
type PolicyListPage struct {
	Chrome
	Rows []PolicyListRow
	// OtherError says why the id typed for another workflow was refused ("" when it was not).
	OtherError string
	OtherValue string
}

// PolicyListRow is one workflow definition of the list.
type PolicyListRow struct {
	Name  string // the name its tasks carry, else its id
	ID    string // shown under the name when it differs
	Href  string // its page
	Lines []PolicyLine
	// Changed is "<who>, <when>" of the policy's last write; "" without a policy.
	Changed string
}

// PolicyLine is one default deadline in words: its kind and when, and what it does.
type PolicyLine struct {
	When    string
	Actions []string
}

// PolicyEditPage is one workflow definition's page: its defaults in words, the form (the
// deadlines as JSON), the delete form and the audit.
type PolicyEditPage struct {
	Chrome
	Name         string // the name its tasks carry, else its id
	DefinitionID string
	Action       string // the form's URL (escaped)
	DeleteAction string
	// Revision is the stored revision the forms expect (0: no policy now).
	Revision int
	Lines    []PolicyLine
	Changed  string // ChangedBy's sentence; "" without a policy
	JSON     string // the textarea: the submitted text, else the current deadlines
	Example  string
	// Errors are the refusal's messages ("deadlines[0].after: must be at least PT1S").
	Errors   []string
	Conflict bool
	Audit    []PolicyAuditRow
}

// PolicyAuditRow is one put or delete of the policy.
type PolicyAuditRow struct {
	Revision string
	What     string
	Who      string
	When     string
	Machine  string // the time for a datetime attribute
}
