package views

import "time"

// The guest pages (SPEC 5.4 /guest) stand apart from the rest of the site: GuestLayout has no
// navigation, no sign-in link, no user and no live updates, and the models carry nothing about
// the task's workflow, history or other participants.

// GuestVerifyPage is the verification screen: the same for every token until it is verified.
type GuestVerifyPage struct {
	Chrome
	Token        string // travels on in a hidden field, never in a URL again
	RequiresCode bool   // a code field; otherwise a Continue button alone
	Error        string // a refused verification
}

// GuestTaskPage is the task as its guest sees it: title, summary, due date, instructions and the
// form with the invitation's allowed actions only.
type GuestTaskPage struct {
	Chrome
	Title        string
	Summary      string
	Due          *time.Time
	Overdue      bool
	Instructions []Block
	Form         TaskForm
	Conflict     string // a refused post of a task that moved on
	Confirmed    bool   // the "submitting is final" box, as posted
	ConfirmError string
}

// GuestDonePage is what the guest sees after submitting: the task and the answer it gave.
type GuestDonePage struct {
	Chrome
	Title  string // the task's
	Answer string // the label of the action taken
}

// GuestNotice is a guest page that only tells something: the one generic failure, a used link,
// too many attempts.
type GuestNotice struct {
	Chrome
	Kind    string // data-testid of the page: guest-invalid, guest-used, guest-rate-limited, …
	Status  int
	Heading string
	Message string
}

// GuestConfirmField is the name of the "submitting is final" checkbox and GuestConfirmValue
// its value.
const (
	GuestConfirmField = "confirm"
	GuestConfirmValue = "final"
)
