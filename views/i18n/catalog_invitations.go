package i18n

// InvitationsText is the Manage panel's guest links (issue 11): the issue form, the list of
// invitations with their status in words, and the flash messages.
type InvitationsText struct {
	Heading          string
	Help             string
	DefinitionLabel  string
	VerifierCode     string // "Link and 6-digit code"
	VerifierBearer   string // "Link alone"
	DefinitionOption string // "%s: %s" — the verifier in words, the allowed actions
	RecipientsLabel  string
	RecipientsHelp   string // free-text recipients (webhook, dev mailbox)
	RecipientsEmail  string // e-mail recipients (smtp)
	ActionsLegend    string
	ActionsHelp      string
	BearerLabel      string // the link alone, where the definition allows it
	Submit           string

	ListHeading string
	None        string
	Recipient   string // "Recipient"
	Status      string // "Status"
	Attempts    string // "Delivery attempts: %s"
	LastError   string // "Last error: %s" (a safe code)
	Expires     string // "Expires %s"
	Group       string // "Sent together with other recipients: the first to open the link gets the task."
	Revoke      string
	RevokeLabel string // "Revoke the guest link for %s"

	Issued     string // the statuses, always said in words
	Dispatched string
	Verified   string
	Consumed   string
	Expired    string
	Revoked    string
	Failed     string

	FlashIssued  string
	FlashRevoked string

	// A guest as the task page names it (issue 26): by its invitation's recipient, as the
	// manager entered it, to whoever may read the task's protected content; else unnamed.
	GuestNamed string // "%s (guest)"
	Guest      string // "Guest"
}
