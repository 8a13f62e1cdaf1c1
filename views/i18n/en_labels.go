package i18n

var englishLabels = LabelsText{
	ConflictKept:      "This task changed since you opened it, so nothing was saved. Your input is kept below; reload to see the latest version.",
	StaleCompleted:    "This task was completed by %s on %s.",
	StaleCancelled:    "This task was cancelled by %s on %s.",
	StaleTimedOut:     "This task timed out on %s.",
	StaleByYou:        "you",
	StaleBySomeone:    "the workflow",
	StaleNothingSaved: "Nothing you sent was saved.",
}
