package notify

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"usertasks/models"
)

// A mail is built from a mailView and rendered twice, as plain text and as HTML. Everything a
// mail says of a task passes through plain(): the only fields are the safe ones of Task (SPEC
// 10.3), and none may bring a line break, a control or a bidirectional-override character into
// a subject, a line of text or the HTML.

// Lengths a mail keeps of a field, in characters.
const (
	maxSubjectTitle = 150
	maxFieldText    = 512
	maxActorName    = 128
)

type mailView struct {
	Lang             string
	Subject          string
	Lead             string
	Tasks            []taskView
	Why              string
	UnsubscribeLabel string
	UnsubscribeURL   string
	SettingsLabel    string
	SettingsURL      string
	Automatic        string
}

type taskView struct {
	Title  string
	Link   string
	Open   string
	Fields []fieldView
	Events []string // a digest's lines for the task, newest first
}

type fieldView struct{ Label, Value string }

// location is a person's time zone; UTC for none or one this system does not know.
func location(zone string) *time.Location {
	if zone == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// taskFields are t's safe fields in the person's words and zone.
func (w *mailText) taskFields(t Task, loc *time.Location) taskView {
	v := taskView{Title: plain(t.Title, maxFieldText), Link: t.Link, Open: w.Open}
	if r := plain(t.Reference, maxFieldText); r != "" {
		v.Fields = append(v.Fields, fieldView{w.Reference, r})
	}
	if wf := plain(t.Workflow, maxFieldText); wf != "" {
		v.Fields = append(v.Fields, fieldView{w.Workflow, wf})
	}
	if t.DueAt != nil {
		v.Fields = append(v.Fields, fieldView{w.Due, w.Page.Date(t.DueAt.In(loc))})
	}
	v.Fields = append(v.Fields, fieldView{w.Priority, w.Page.Priority(t.Priority)})
	return v
}

// actorName is the display name of who caused n; "" for the system or a nameless actor (an
// id is no name to show a person).
func actorName(n models.Notification) string {
	if n.Actor == nil {
		return ""
	}
	return plain(n.Actor.DisplayName, maxActorName)
}

// single is the view of one notification's mail.
func (w *mailText) single(n models.Notification, t Task, loc *time.Location) mailView {
	if t.Title == "" {
		t.Title = n.Title
	}
	lead := w.LeadsNoActor[n.Trigger]
	if name := actorName(n); name != "" && strings.Contains(w.Leads[n.Trigger], "%s") {
		lead = fmt.Sprintf(w.Leads[n.Trigger], name)
	}
	return mailView{
		Lang:             w.Page.Lang,
		Subject:          fmt.Sprintf(w.Subjects[n.Trigger], plain(t.Title, maxSubjectTitle)),
		Lead:             lead,
		Tasks:            []taskView{w.taskFields(t, loc)},
		Why:              fmt.Sprintf(w.Why, w.Names[n.Trigger]),
		UnsubscribeLabel: w.Unsubscribe,
		SettingsLabel:    w.Settings,
		Automatic:        w.Automatic,
	}
}

// digest is the view of a digest: items grouped by task, the task with the newest item first,
// each task's lines newest first.
func (w *mailText) digest(period models.DigestPeriod, items []Item, loc *time.Location) mailView {
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b Item) int {
		return cmp.Or(b.Notification.OccurredAt.Compare(a.Notification.OccurredAt), cmp.Compare(a.Notification.ID, b.Notification.ID))
	})
	var tasks []taskView
	at := map[string]int{}
	for _, it := range sorted {
		i, seen := at[it.Notification.TaskID]
		if !seen {
			t := it.Task
			if t.Title == "" {
				t.Title = it.Notification.Title
			}
			i = len(tasks)
			at[it.Notification.TaskID] = i
			tasks = append(tasks, w.taskFields(t, loc))
		}
		tasks[i].Events = append(tasks[i].Events, w.event(it.Notification, loc))
	}
	subject := w.DigestSubject[period]
	if subject == "" {
		subject = w.DigestSubject[models.DigestOff]
	}
	subject += ": " + w.Page.Count(w.Updates, len(items)) + " " + w.Page.Count(w.OnTasks, len(tasks))
	return mailView{
		Lang:             w.Page.Lang,
		Subject:          subject,
		Lead:             w.DigestIntro,
		Tasks:            tasks,
		Why:              w.DigestWhy,
		UnsubscribeLabel: w.DigestStop,
		SettingsLabel:    w.Settings,
		Automatic:        w.Automatic,
	}
}

// event is a digest's line for n: what happened, by whom, when.
func (w *mailText) event(n models.Notification, loc *time.Location) string {
	line := w.Events[n.Trigger]
	if line == "" {
		line = string(n.Trigger)
	}
	if name := actorName(n); name != "" {
		line += " " + fmt.Sprintf(w.ByActor, name)
	}
	return line + " · " + w.Page.Date(n.OccurredAt.In(loc))
}

// plain makes s safe for a header, a line of text and HTML: every run of white space, control
// and invisible formatting characters (line breaks, tabs, bidirectional overrides, zero-width
// spaces) becomes one space, the ends are trimmed, and at most max characters are kept ("…"
// marks a cut). Zero-width joiners stay: emoji and some scripts need them.
func plain(s string, max int) string {
	var b strings.Builder
	n, gap := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || (unicode.Is(unicode.Cf, r) && r != '\u200c' && r != '\u200d') ||
			r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			gap = true
			continue
		}
		if n == max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		if gap && n > 0 {
			b.WriteByte(' ')
			n++
			if n == max {
				return strings.TrimRight(b.String(), " ") + "…"
			}
		}
		gap = false
		b.WriteRune(r)
		n++
	}
	return b.String()
}
