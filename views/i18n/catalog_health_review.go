package i18n

import "usertasks/models"

// HealthReviewText is the health review's wording: for each health code what it means and why
// it happened, for each remedy what fixes the finding and the button that does it, the health
// filters of the inbox, and why a task is on the Needs attention list.
type HealthReviewText struct {
	Meanings map[string]string        // by health code: what the finding means
	Causes   map[string]string        // by health code: why it happened
	Remedies map[models.Remedy]string // what fixes a finding, as a sentence
	Buttons  map[models.Remedy]string // the fixing action's button; RemedyWait has none

	UnknownMeaning string // a code the catalogues do not know yet
	UnknownCause   string
	WhyLabel       string // "Why it happened"
	FixLabel       string // "What fixes it"

	CodeFilter     string // the inbox filters
	SeverityFilter string
	AnySeverity    string

	ReasonsLabel          string // spoken before the reasons of a row
	ReasonOverdue         string
	ReasonStaleSince      string // followed by a time
	ReasonUnassignedSince string // followed by a time
}

// Meaning is what a health code means.
func (h *HealthReviewText) Meaning(code string) string { return or(h.Meanings[code], h.UnknownMeaning) }

// Cause is why a finding with this code happens.
func (h *HealthReviewText) Cause(code string) string { return or(h.Causes[code], h.UnknownCause) }
