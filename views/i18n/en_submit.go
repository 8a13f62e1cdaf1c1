package i18n

var englishSubmit = SubmitText{
	CompletedBy: "This task was completed by %s. Your submission was not recorded.",
}
