package i18n

// MailboxText is the dev mailbox page (dev mode only): the invitations the dev-mailbox
// dispatcher "sent", kept in memory.
type MailboxText struct {
	Title     string
	DevTool   string // the badge marking the page as a development tool
	DevNote   string
	Empty     string
	Caption   string
	Sent      string
	Recipient string
	Link      string
	OpenLink  string
	Code      string
	NoCode    string
	Expires   string
}
