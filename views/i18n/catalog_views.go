package i18n

// ViewsText is the inbox's list controls: column sorting, the status and workflow filters and
// saved views.
type ViewsText struct {
	// Column sorting: the header link's hidden hint and the sorted column's direction.
	SortBy           string // "Sort by %s"
	SortedAscending  string
	SortedDescending string

	// Status checkboxes and the workflow select.
	AnyWorkflow  string
	StatusChosen string // "%d selected"

	// Saved views in the inbox.
	Region       string // the landmark's name
	ViewLabel    string
	Choose       string // the menu's first entry when the page shows no saved view
	Open         string
	Current      string // marks the view the page shows
	SharedMark   string // after a shared view's name
	SaveTitle    string
	NameLabel    string
	NameHelp     string
	ShareLabel   string
	ShareHelp    string
	Save         string
	Manage       string
	ManageTitle  string
	ManageIntro  string
	NoViews      string
	ColName      string
	ColOwner     string
	ColSharing   string
	ColActions   string
	Private      string
	Shared       string
	You          string
	Rename       string
	RenameLabel  string // "New name for %s"
	Delete       string
	BackToInbox  string
	LimitReached string // "You have %d saved views, the most one person may keep."

	// Refusals next to the name.
	NameRequired string
	NameTooLong  string
	NameInvalid  string
	NameTaken    string
	QueryInvalid string

	// Flash messages after a redirect; %s is the view's name.
	FlashSaved   string
	FlashRenamed string
	FlashDeleted string
}
