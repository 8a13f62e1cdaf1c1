package i18n

var englishGuest = GuestText{
	VerifyTitle:  "Open your task",
	VerifyCode:   "Enter the 6-digit code from your invitation to open the task.",
	VerifyBearer: "Continue to open the task you were invited to.",
	CodeLabel:    "Code",
	CodeHelp:     "6 digits, sent to you with the link.",
	Continue:     "Continue",
	VerifyFailed: "This did not work: the code is wrong, or the link is no longer valid. Check the code and try again.",
	UsedTitle:    "This link has been used",
	UsedText:     "Your code is right, but the task was opened with this link already, and a link works only once. If you still need to answer, ask the person who sent it for a new link.",

	TaskNote:       "You were invited to complete this task.",
	AnswerHeading:  "Your answer",
	ConfirmLabel:   "I understand that submitting is final: I cannot change my answer afterwards.",
	ConfirmMissing: "Confirm that submitting is final.",

	DoneTitle:  "Thank you",
	DoneText:   "Your answer was submitted.",
	DoneTask:   "Task",
	DoneAnswer: "Your answer",
	DoneClose:  "There is nothing more to do here. You may close this window.",

	InvalidTitle:     "This link is no longer valid",
	InvalidText:      "It may have expired, been used already or been withdrawn. Ask the person who sent it for a new one.",
	RateLimitedTitle: "Too many attempts",
	RateLimitedText:  "Wait a few minutes, then open the link from your invitation again.",
	RefusedTitle:     "This page has expired",
	RefusedText:      "Open the link from your invitation again and repeat your entry.",
	FailedTitle:      "Something went wrong",
	FailedText:       "Your entry could not be processed. Wait a moment and try again.",
}
