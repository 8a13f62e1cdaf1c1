package i18n

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"usertasks/models"
)

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

	// A form that did not resolve, in the health review (managers).
	FormRequested    string // label: the form the workflow asked for
	FormRef          string // %s: key, %s: version, %s: provider
	FormRefLatest    string // %s: key, %s: provider (no version named: the latest)
	FormWhereFiles   string // %s: provider, %s: the configuration variable
	FormWhereUnknown string // %s: the requested provider, %s: the built-in provider, %s: its variable
	FormLastAttempt  string // label: why the last resolution failed
	RetryFailedAgain string // the flash of a retry that failed again; %s: why
	FormFailures     map[models.FormFailure]string

	PriorityTitle string // the priority badge's tooltip; %s: the number
	ZoneLabel     string // the footer's zone; %s: the zone's city, %s: its offset ("UTC+01:00")

	// Check access: the permissions another person is assumed to hold, said once; %s: their names.
	AccessAssumed string
	// Permissions name permissions and grants ("user-tasks:view"); the code stays in a tooltip.
	Permissions map[string]string
	Quoted      string // a named thing in a sentence; %s: the name

	// TaskTypes name the task types workflows commonly use (the demo's among them); any other
	// type is shown as its code made readable ("credit-check" → "Credit check").
	TaskTypes map[string]string

	// Check access with a directory: find the participant by name.
	AccessFind     string
	AccessFindHelp string
}

// TaskType is a task type as people read it: its name in this language when known (matched
// without regard to case), else the code with dashes and underscores as spaces and a capital
// first letter. Pages keep the code itself in a tooltip.
func (c *Catalog) TaskType(code string) string {
	if name, ok := c.Labels.TaskTypes[strings.ToLower(code)]; ok {
		return name
	}
	s := strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(code))
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return code
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
