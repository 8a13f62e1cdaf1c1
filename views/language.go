package views

// LanguageSwitch is the language switcher of a page's header: a form posting the chosen
// language to POST /language, which sets the language cookie and goes back to Return.
type LanguageSwitch struct {
	Return string // the page to go back to: a same-site path with its query
	CSRF   string // the form's token (the anonymous binding's on pages without a session)
	// GuestToken is the guest link's token on the verification screen (Return is "/guest"):
	// sent as "t", as the verification form sends it.
	GuestToken string
}
