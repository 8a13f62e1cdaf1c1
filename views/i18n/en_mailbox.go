package i18n

var englishMailbox = MailboxText{
	Title:     "Dev mailbox",
	DevTool:   "Development tool",
	DevNote:   "This page exists in dev mode only. It shows the invitations sent to guests in this tenant, newest first, as the guests would receive them. They are kept in memory: a restart empties the mailbox.",
	Empty:     "No invitation has been sent since the server started.",
	Caption:   "Sent invitations, newest first",
	Sent:      "Sent",
	Recipient: "Recipient",
	Link:      "Link",
	OpenLink:  "Open the guest link",
	Code:      "Code",
	NoCode:    "none (link only)",
	Expires:   "Expires",
	About:     "about %s",
}
