package i18n

import (
	"fmt"

	"usertasks/models"
)

// AccessText is the words of "Check access": the Manage panel's form and the page that explains
// why a participant can or cannot view, claim and complete a task.
type AccessText struct {
	Heading      string // the panel's and the page's heading
	Help         string // under the panel's heading
	TypeLabel    string
	TypeUser     string
	TypeGroup    string
	IDLabel      string
	IDHelp       string
	Submit       string
	BackToTask   string
	PageTitle    string // %s: the task's title
	ResultFor    string // %s: the participant's name
	PremisesHead string
	Allowed      string
	Denied       string
	Invalid      string // the participant could not be read
	Audited      string // a note that asking is recorded in the task's history

	// Operations names view, claim and complete.
	Operations map[string]string
	// Rules are the sentences of the policy's rules (models.Rule), %s filled from the reason's
	// values in order (models.RuleArgs says how many).
	Rules map[models.Rule]string
}

// Operation keys of an explanation, in the order pages show them.
const (
	AccessView     = "view"
	AccessClaim    = "claim"
	AccessComplete = "complete"
)

// Rule is the sentence for one step; an unknown rule shows its key.
func (a AccessText) Rule(rule models.Rule, args ...string) string {
	format, ok := a.Rules[rule]
	if !ok {
		return string(rule)
	}
	vals := make([]any, len(args))
	for i, v := range args {
		vals[i] = v
	}
	return fmt.Sprintf(format, vals...)
}
