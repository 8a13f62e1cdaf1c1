package i18n

// NotificationsText is the bell, the notifications page and the notification settings
// (SPEC 10.3).
type NotificationsText struct {
	Title     string
	BellLabel string // the bell link's name: "Notifications, %s unread"
	TabAll    string
	TabUnread string
	TabsLabel string // the filter's landmark name
	Unread    string // marks an unread row (for screen readers, next to the dot)
	By        string // "by %s": who caused it
	MarkRead  string
	MarkAll   string
	Empty     string
	EmptyRead string // only-unread view with nothing unread
	Older     string
	Newest    string
	Settings  string // the link to the settings page

	SettingsTitle string
	SettingsIntro string
	EmailLegend   string
	EmailHelp     string
	DigestLegend  string
	DigestHelp    string
	DigestOff     string
	DigestHourly  string
	DigestDaily   string
	Save          string
	DigestInvalid string
	BackToList    string

	FlashRead  string
	FlashSaved string

	// Triggers name why a row was sent, in the list ("Assigned to you"); EmailTriggers label
	// the settings' checkboxes ("A task is assigned to me"). Keys: the trigger names.
	Triggers      map[string]string
	EmailTriggers map[string]string
}
