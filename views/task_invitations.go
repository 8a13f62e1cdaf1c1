package views

import "time"

// InvitationPanel is the Manage panel's guest links: the issue form (nil when no invitation may
// be issued now) and the task's invitations, newest first.
type InvitationPanel struct {
	Form        *InvitationForm
	Unavailable string // why no form is offered though the task allows guest links
	Items       []InvitationRow
}

// InvitationForm issues guest links against one of the task's invitation definitions.
type InvitationForm struct {
	Command
	Definitions []Option // value: the definition's index
	Recipients  string   // one per line, as posted
	Email       bool     // recipients are e-mail addresses (the smtp dispatcher)
	Actions     []InvitationAction
	Bearer      bool // some definition allows the link alone
	BearerOnly  bool
	Errors      map[string]string // definition, recipients, allowedActions, bearerOnly, form
}

// InvitationAction is one action a guest link may narrow to.
type InvitationAction struct {
	Key     string
	Label   string
	Checked bool
}

// InvitationRow is one invitation of the list: its status in words, never its link or code.
type InvitationRow struct {
	ID         string
	Recipient  string
	Status     string // the display status key: issued, dispatched, verified, consumed, expired, revoked, failed
	StatusText string
	Attempts   int
	LastError  string // a safe error code
	Expires    time.Time
	Group      bool     // one of a sibling group
	Revoke     *Command // nil when it cannot be revoked
}

// invitationIcon is the icon beside a display status; the words say the same.
func invitationIcon(status string) string {
	switch status {
	case "issued":
		return "clock"
	case "dispatched":
		return "send"
	case "verified":
		return "assigned"
	case "consumed":
		return "completed"
	case "expired":
		return "timed-out"
	case "failed":
		return "blocking"
	}
	return "cancelled"
}

// invitationBadge is the status badge's colour class, borrowed from the task statuses.
func invitationBadge(status string) string {
	switch status {
	case "issued":
		return "status--pending"
	case "dispatched":
		return "status--available"
	case "verified":
		return "status--assigned"
	case "consumed":
		return "status--completed"
	case "expired":
		return "status--timed-out"
	}
	return "status--cancelled"
}
