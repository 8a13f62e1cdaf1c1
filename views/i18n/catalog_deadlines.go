package i18n

import (
	"strconv"
	"strings"

	"usertasks/models"
)

// DeadlinesText is the task page's Deadlines block and the History line of a firing (SPEC
// 10.4, issue 30 item 3): when each deadline is due, whether it fired, and what it does, in
// words that name no participant (the page shows candidates as counts too).
type DeadlinesText struct {
	Heading string
	Intro   string // one sentence: deadlines escalate the task by themselves

	Start          string // "Start deadline"
	Completion     string // "Completion deadline"
	StartHelp      string // when a start deadline fires
	CompletionHelp string // when a completion deadline fires
	Numbered       string // %s: the kind's name, %s: its number ("Start deadline 2")

	DueLabel     string
	StateLabel   string
	ActionsLabel string
	Pending      string // not yet due, or due and not yet swept
	Fired        string // followed by the time
	Skipped      string // came due when nobody needed it; followed by the time

	// What a pending deadline will do (and a settled one did), one line per action.
	NotifyManagers   string
	NotifyCandidates string
	NotifyAssignee   string
	NotifyNamed      [2]string // %d named participants
	Reassign         string    // %s: "2 users, 1 group"
	ReassignRelease  string    // completion: releases the assignee too; %s as Reassign
	ReassignNobody   string    // a reassign that names nobody
	SetPriority      string    // %s: the priority
	Flag             string

	// History: a deadline-fired event. %s: the deadline's number, %s: its kind (KindWords),
	// %s: what it did (ActionWords joined).
	HistoryFired string
	KindWords    map[models.DeadlineKind]string
	// ActionWords say what a firing did, by action type, in the past tense.
	ActionWords map[models.DeadlineActionType]string
	ListJoin    string // between the action words

	// The managers' dashboard: fired deadlines of the last days per workflow (%d: the days).
	DashHead     string
	DashWorkflow string // column header
	DashCount    string // column header: short, the card's heading says what is counted (a phone leaves the workflow names little room)
	DashNone     string // %d: the days
}

// DeadlineKind names a deadline's kind ("Start deadline"); an unknown kind is its code.
func (c *Catalog) DeadlineKind(k models.DeadlineKind) string {
	switch k {
	case models.DeadlineStart:
		return c.Deadlines.Start
	case models.DeadlineCompletion:
		return c.Deadlines.Completion
	}
	return string(k)
}

// DeadlineKindHelp says when a deadline of kind k fires.
func (c *Catalog) DeadlineKindHelp(k models.DeadlineKind) string {
	switch k {
	case models.DeadlineStart:
		return c.Deadlines.StartHelp
	case models.DeadlineCompletion:
		return c.Deadlines.CompletionHelp
	}
	return ""
}

// DeadlineAction says what one action of a deadline of kind k does, naming nobody: named
// participants and new candidates are counted.
func (c *Catalog) DeadlineAction(k models.DeadlineKind, a models.DeadlineAction) string {
	d := c.Deadlines
	switch a.Type {
	case models.DeadlineNotify:
		if a.To == nil {
			return d.NotifyNamed[1]
		}
		switch a.To.Audience {
		case models.NotifyManagers:
			return d.NotifyManagers
		case models.NotifyCandidates:
			return d.NotifyCandidates
		case models.NotifyAssignee:
			return d.NotifyAssignee
		}
		return c.Count(d.NotifyNamed, len(a.To.Participants))
	case models.DeadlineReassign:
		var to []string
		if n := len(a.CandidateUsers); n > 0 {
			to = append(to, c.Count(c.CandidateUsers, n))
		}
		if n := len(a.CandidateGroups); n > 0 {
			to = append(to, c.Count(c.CandidateGroups, n))
		}
		if len(to) == 0 {
			return d.ReassignNobody
		}
		format := d.Reassign
		if k == models.DeadlineCompletion {
			format = d.ReassignRelease
		}
		return c.Format(format, strings.Join(to, d.ListJoin))
	case models.DeadlineSetPriority:
		if a.Priority != nil {
			return c.Format(d.SetPriority, strconv.Itoa(*a.Priority))
		}
	case models.DeadlineFlag:
		return d.Flag
	}
	return string(a.Type)
}

// DeadlineFired is the History line of a deadline-fired event: index is the deadline's
// position (0-based, shown from 1), actions its action types as the event recorded them; a
// type this version does not know is shown as recorded.
func (c *Catalog) DeadlineFired(index int, kind models.DeadlineKind, actions []string) string {
	d := c.Deadlines
	kw, ok := d.KindWords[kind]
	if !ok {
		kw = string(kind)
	}
	did := make([]string, 0, len(actions))
	for _, a := range actions {
		did = append(did, or(d.ActionWords[models.DeadlineActionType(a)], a))
	}
	return c.Format(d.HistoryFired, strconv.Itoa(index+1), kw, strings.Join(did, d.ListJoin))
}
