package views

// EscalationsTable is the dashboard's "Escalations, last 7 days, per workflow" (SPEC 10.4).
type EscalationsTable struct {
	Heading string // with the number of days
	None    string // shown instead of an empty table
	Rows    []EscalationRow
}

// EscalationRow is one workflow's fired deadlines; Href lists the workflow's tasks.
type EscalationRow struct {
	Workflow string
	Href     string
	Count    int
}
