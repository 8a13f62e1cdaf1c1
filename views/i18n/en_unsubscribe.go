package i18n

var englishUnsubscribe = UnsubscribeText{
	Title:            "Unsubscribe from email",
	Confirm:          "Stop emails for “%s”?",
	ConfirmText:      "You will no longer get an email when this happens.",
	DigestConfirm:    "Stop notification emails?",
	DigestText:       "You will no longer get the summary, nor a single email for any notification.",
	Button:           "Unsubscribe",
	DoneTitle:        "Unsubscribed",
	Done:             "You will no longer get emails for “%s”.",
	DigestDone:       "You will no longer get notification emails.",
	AlreadyOff:       "Emails for “%s” are off.",
	DigestAlreadyOff: "Notification emails are off.",
	InAppStays:       "Notifications still appear in the app. You can turn emails back on in your notification settings.",
	Settings:         "Notification settings",
	InvalidTitle:     "This link does not work",
	InvalidText:      "The unsubscribe link is not valid. Sign in and choose which emails you get in your notification settings.",
}
