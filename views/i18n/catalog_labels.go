package i18n

// LabelsText is the words that put the task page's codes and refusals into sentences: what a
// stale form ran into, where a missing form provider is configured, and the labels shown
// instead of raw codes (issue 26).
type LabelsText struct {
	// A form posted after the task moved on (%s: who, then when).
	ConflictKept      string // the revision changed and the page shows the posted input again
	StaleCompleted    string // %s: who, %s: when
	StaleCancelled    string // %s: who, %s: when
	StaleTimedOut     string // %s: when
	StaleByYou        string // "you", as the who of the sentences above
	StaleBySomeone    string // the who when nobody is recorded (the workflow)
	StaleNothingSaved string // appended: nothing of the refused post was saved
}
