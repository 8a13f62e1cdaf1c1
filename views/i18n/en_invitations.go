package i18n

var englishInvitations = InvitationsText{
	Heading:          "Guest links",
	Help:             "Send a one-time link to someone without an account. The guest can open and complete this task only.",
	DefinitionLabel:  "Kind of link",
	VerifierCode:     "Link and 6-digit code",
	VerifierBearer:   "Link alone",
	DefinitionOption: "%s: %s",
	RecipientsLabel:  "Recipients",
	RecipientsHelp:   "One per line. Several recipients share one task: the first to open the link gets it, the other links stop working.",
	RecipientsEmail:  "E-mail addresses, one per line. Several recipients share one task: the first to open the link gets it, the other links stop working.",
	ActionsLegend:    "Allowed actions",
	ActionsHelp:      "Leave all unticked to allow every action of the kind of link.",
	BearerLabel:      "Send the link alone, without a code",
	Submit:           "Send guest link",

	ListHeading: "Sent guest links",
	None:        "No guest links yet.",
	Recipient:   "Recipient",
	Status:      "Status",
	Attempts:    "Delivery attempts: %s",
	LastError:   "Last error: %s",
	Expires:     "Expires %s",
	Group:       "Sent together with other recipients.",
	Revoke:      "Revoke",
	RevokeLabel: "Revoke the guest link for %s",

	Issued:     "Waiting to be sent",
	Dispatched: "Sent",
	Verified:   "Opened by the guest",
	Consumed:   "Used",
	Expired:    "Expired",
	Revoked:    "Revoked",
	Failed:     "Could not be sent",

	FlashIssued:  "The guest link was created and will be sent shortly.",
	FlashRevoked: "The guest link was revoked. It no longer works.",

	GuestNamed: "%s (guest)",
	Guest:      "Guest",
}
