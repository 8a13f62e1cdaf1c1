package i18n

// GuestText is the guest page's text (SPEC 5.4 /guest, issue 11): the verification screen, the
// task as its guest sees it, the confirmation that submitting is final, the done page and the
// one generic failure.
type GuestText struct {
	VerifyTitle  string
	VerifyCode   string // what to do when the invitation asks for its code
	VerifyBearer string // what to do when the link alone opens the task
	CodeLabel    string
	CodeHelp     string
	Continue     string
	VerifyFailed string // a refused verification, alike for a wrong code and a dead link
	UsedTitle    string // the right code of a link used already (issue 26)
	UsedText     string

	TaskNote       string // who the page is for, above the task
	AnswerHeading  string // the heading of the answer section of a task without a form
	ConfirmLabel   string
	ConfirmMissing string

	DoneTitle  string
	DoneText   string
	DoneTask   string // the label of the task's title on the done page
	DoneAnswer string // the label of the answer given
	DoneClose  string // that the window may be closed

	InvalidTitle     string
	InvalidText      string
	RateLimitedTitle string
	RateLimitedText  string
	RefusedTitle     string // a post without a valid CSRF token
	RefusedText      string
	FailedTitle      string // busy or internal
	FailedText       string
}
