package views

// NotifyUnsubscribePage is the page behind a notification mail's unsubscribe link: what the
// link turns off and a button (Token set), what it turned off, or that the link does not work.
type NotifyUnsubscribePage struct {
	Chrome
	Kind    string // data-testid: unsubscribe-confirm, unsubscribe-done, unsubscribe-invalid, unsubscribe-failed
	Status  int
	Heading string
	Message string
	Note    string // what stays: in-app notifications, the settings
	// Token, when set, is posted back by the button with List-Unsubscribe=One-Click.
	Token string
}

// NotifyUnsubscribeAction is where the page's button posts (RFC 8058's one-click address).
const NotifyUnsubscribeAction = "/notifications/unsubscribe"
