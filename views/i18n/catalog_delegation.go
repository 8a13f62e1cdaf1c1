package i18n

// DelegationText is the web's delegation and out-of-office text (SPEC 10.5, issue 31): the task
// page's Delegate and Return, the History lines of delegations, returns and substitutions, the
// inbox's "on behalf of" and away banner, and the Out of office pages.
type DelegationText struct {
	// The task page.
	DelegatedBy   string // the fact's label: "Delegated by"
	Heading       string // the Delegate section
	DelegateIntro string
	ToRequired    string
	NotYourself   string
	HoldsAlready  string
	Submit        string
	Return        string // the delegate's button: "Return to %s"
	FlashDelegate string
	FlashReturn   string

	// History. %s in order: the delegate or assignee, (the absent user,) the actor.
	HistoryDelegated    string // "Delegated to %s by %s"
	HistoryDelegatedFor string // "Delegated to %s (standing in for %s) by %s"
	HistoryReturned     string // "Returned to %s by %s"
	HistoryAssignedFor  string // "Assigned to %s (standing in for %s) by %s"
	HistoryClaimedFor   string // "Claimed by %s on behalf of %s"

	// The inbox.
	OnBehalfOf string // "on behalf of %s"
	Away       string // "You are out of office until %s; %s receives your new tasks."
	AwayLink   string

	// The Out of office pages.
	Nav             string // the user menu's link
	Title           string
	Intro           string
	TeamTitle       string
	TeamIntro       string
	PersonTitle     string // "Out of office: %s"
	PersonIntro     string
	TeamLink        string // from one's own page to the managers' page
	DashLink        string // from the manager dashboard to the managers' page
	PersonLabel     string
	PersonHelp      string
	Open            string
	ChooseAnother   string
	CurrentHeading  string
	None            string
	StateActive     string
	StatePlanned    string
	StateEnded      string
	FromLabel       string // "From (%s)": the zone
	UntilLabel      string // "Until (%s)"
	FromShort       string // the stored absence's labels
	UntilShort      string
	Substitute      string
	SubstituteHelp  string
	SetHeading      string
	ReplaceNote     string
	Save            string
	Remove          string
	TimeInvalid     string
	UntilBeforeFrom string
	TooLong         string
	SubRequired     string
	SubSelf         string
	UnknownPerson   string
	FlashSaved      string
	FlashRemoved    string
}
