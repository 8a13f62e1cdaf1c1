package i18n

// UnsubscribeText is the page behind a notification mail's one-click unsubscribe link (RFC
// 8058): what the link turns off, the button, the result, and the one page for a link that is
// not valid. "%s" is the trigger's name as the mail's footer says it.
type UnsubscribeText struct {
	Title            string
	Confirm          string // "%s": the trigger's name
	ConfirmText      string
	DigestConfirm    string
	DigestText       string
	Button           string
	DoneTitle        string
	Done             string // "%s": the trigger's name
	DigestDone       string
	AlreadyOff       string // "%s": the trigger's name
	DigestAlreadyOff string
	InAppStays       string
	Settings         string
	InvalidTitle     string
	InvalidText      string
}
