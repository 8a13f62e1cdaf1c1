package i18n

// ListsText is the inbox list's status filter: its groups of statuses and what they mean.
type ListsText struct {
	// The status groups: open (people act), in progress with the workflow (submitted, timing
	// out or cancelling: the workflow has to confirm), closed.
	StatusOpen         string
	StatusOpenHint     string // Unassigned vs Available
	StatusWorkflow     string
	StatusWorkflowHint string
	StatusClosed       string
}
