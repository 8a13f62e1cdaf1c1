// Package views holds the templ components of the web pages and their typed view models. The
// handlers build a model, render the page into a buffer and write it; the components never
// call services, read requests or format anything but what the model carries.
package views

import (
	"time"

	"usertasks/models"
	"usertasks/views/i18n"
)

// Chrome is what every page shares: language, the signed-in user, the CSRF token for its
// forms, a flash message from the previous request, and what the page's Clock needs.
type Chrome struct {
	T        *i18n.Catalog
	Title    string // the page's own title; the document title appends the app name
	User     *User  // nil when nobody is signed in
	CSRF     string // the token every form posts as CSRFField
	Flash    *Flash
	Now      time.Time      // relative times count from here
	Location *time.Location // absolute times are shown in this zone; nil is UTC

	// TimeZone is the IANA zone the page renders times in (the session's, else the browser's
	// cookie, else UTC), for the page's <meta name="time-zone">.
	TimeZone string

	// Language is the header's language switcher; a zero value leaves it out.
	Language LanguageSwitch

	// Bell is the header's unread notifications; nil leaves it out.
	Bell *Bell
}

// CSRFField is the name of the hidden CSRF input of every form.
const CSRFField = "csrf_token"

// User is the signed-in person as the header shows them.
type User struct {
	Name    string
	ID      string
	Tenant  string
	Manager bool
}

// FlashKind styles a flash message.
type FlashKind string

const (
	FlashSuccess FlashKind = "success"
	FlashInfo    FlashKind = "info"
	FlashWarning FlashKind = "warning" // it worked, but did not achieve what was hoped
)

// Flash is a one-time message shown after a redirect.
type Flash struct {
	Kind    FlashKind
	Message string
}

// Tab is one entry of a tab bar rendered as links.
type Tab struct {
	Key     string
	Label   string
	Href    string
	Current bool
	Count   *int // the tab's number of tasks; nil when not counted
	// CountCapped: the tab holds more than Count, which is then the cap ("1,000+").
	CountCapped bool
}

// Option is one choice of a select or radio group.
type Option struct {
	Value    string
	Label    string
	Selected bool
}

// Health is a task's health finding as managers see it; the pages put it in words by code
// (the stored message is English and for logs and the API).
type Health struct {
	Blocking bool
	Code     string
	Form     *FormTrouble // a form that did not resolve: what was asked for and where it is set up
}

// FormTrouble is the form reference a task could not resolve, for the manager who fixes it:
// the provider and form asked for, whether the provider is the built-in one and the
// configuration variable that sets it up, and the class of the last failure ("" unknown).
type FormTrouble struct {
	Provider, Key, Version string
	Builtin                string // the built-in provider's name
	Variable               string // the configuration variable of the built-in provider
	Failure                models.FormFailure
}

// Command is the hidden state a state-changing form posts: where, for which revision, and
// the operation id minted when the form was rendered (a double submit replays it).
type Command struct {
	Action      string // the form's action URL
	Revision    int
	OperationID string
	Return      string // where to go back to, for row actions
}

// ----- Inbox -----

// ListState says what the inbox list area shows.
type ListState int

const (
	ListRows     ListState = iota // rows, possibly with paging
	ListEmpty                     // no rows
	ListError                     // the list failed; filters are kept
	ListInvalid                   // the filters are invalid; messages are next to the fields
	ListBadRange                  // the page link (cursor) is unreadable
)

// InboxPage is /inbox.
type InboxPage struct {
	Chrome
	Scope        models.Scope
	Tabs         []Tab
	Filters      InboxFilters
	FilterErrors map[string]string // by input name
	Filtered     bool              // any filter besides the tab is set
	FiltersOpen  bool              // the filter panel starts open (filters, sort or errors set)
	Rows         []InboxRow
	Total        *int
	TotalCapped  bool // the list holds more than Total, the cap ("1,000+ tasks")
	// SearchLimited: a 1–2 character search ended this page at the end of its window; the
	// note links Paging.NextHref to search further (even from an empty page).
	SearchLimited bool
	// SearchWindow is the short search's window, for the search field's hint.
	SearchWindow int
	State        ListState
	Paging       Paging
	ClearHref    string
	RetryHref    string
	Conflict     string // a row action's 409, as a banner
	ShowHealth   bool
	PageSizes    []int
	Bulk         *BulkToolbar // managers' bulk actions (All, Needs attention); nil elsewhere
	Lists        InboxLists   // sorting, workflow choices, saved views (inbox_lists.go)
	// AssigneeChip is the active assignee filter, by name; nil without one.
	AssigneeChip *AssigneeChip
	// Away is the reader's own active absence (absence_model.go); nil without one.
	Away *AwayBanner
}

// InboxFilters are the filter inputs as submitted (strings, so invalid values are shown back).
type InboxFilters struct {
	Query        string
	Status       []string
	PriorityFrom string
	PriorityTo   string
	Due          string
	Workflow     string
	Health       HealthFilters
	Assignee     InboxAssignee
	Sort         string
	Direction    string
	PageSize     string
}

// Paging links; empty when there is no such page.
type Paging struct {
	PrevHref  string
	NextHref  string
	FirstHref string
}

// InboxRow is one task of the list.
type InboxRow struct {
	ID        string
	Href      string
	Title     string
	Reference string
	Status    models.Status
	Priority  int
	Due       *time.Time
	Overdue   bool
	Assignee  string // display name; "" when unassigned
	Mine      bool
	Updated   time.Time
	Closed    *Closing // nil while the task is open or transitional
	Revision  int
	Claim     *Command // nil when the caller may not claim
	Release   *Command // nil when the caller may not release
	Health    *Health  // managers only
	Attention []AttentionNote
	// Activity is how many comments and files the task holds (zero: the cell stays empty).
	Activity models.ActivityCount
	// OnBehalfOf names the absent user a substitute sees the row for ("" for one's own).
	OnBehalfOf string
}

// Closing is how a closed task ended, as its row tells it: "Completed 3 hours ago by Ben ·
// Approve".
type Closing struct {
	Status models.Status
	At     time.Time
	By     string // who closed it; "" for the system (timeouts, the runtime)
	ByMe   bool   // the reader closed it
	Action string // the completing action's label; "" for timeouts and cancellations
}

// ----- Task page -----

// Section names a tab of the task page.
type Section string

const (
	SectionTask     Section = "task"
	SectionWorkflow Section = "workflow"
	SectionHistory  Section = "history"
)

// TaskPage is /tasks/{id}.
type TaskPage struct {
	Chrome
	Task         TaskHeader
	Section      Section
	Tabs         []Tab // empty when only the Task section is disclosed
	Banners      Banners
	Protected    bool // the caller sees instructions and form
	Instructions []Block
	Form         *TaskForm // nil without a form and without actions to take
	Claim        *Command
	Release      *Command
	Manage       *ManagePanel
	Workflow     *WorkflowInfo
	History      *History
	// Activity is the comments and files (task_activity.go); nil for guests and when not served.
	Activity *Activity
	// Deadlines are the task's deadlines by number, shown in the Task section (task_deadlines.templ).
	Deadlines []DeadlineRow
	// Delegate and Return hand the task over (task_handover.go); nil when not offered.
	Delegate *DelegateForm
	Return   *ReturnForm
}

// TaskHeader is the task's safe summary.
type TaskHeader struct {
	ID          string
	Href        string
	Title       string
	TaskType    string
	Summary     string
	Reference   string
	Tags        []string
	Status      models.Status
	Priority    int
	Due         *time.Time
	Overdue     bool
	Assignee    string
	Mine        bool
	Requester   string
	Created     time.Time
	Updated     time.Time
	Assigned    *time.Time
	Completed   *time.Time
	Revision    int
	Users       int
	Groups      int
	OutcomeKey  string // the completion action's label, once set
	OutcomeBy   string
	Health      *Health // managers only
	WorkflowRef string  // name or id, for the header line
	// DelegatedBy names who delegated the task to its assignee ("" when not delegated).
	DelegatedBy   string
	DelegatedByMe bool
}

// Banners are the page-level messages above the task.
type Banners struct {
	Conflict *Conflict
	Accepted string // "Submitted — the workflow is continuing."
	Closed   string // the task is terminal
	ReadOnly string // the caller cannot act
	Error    string // a general error of the last post
}

// Conflict is a refused post's banner with the link that reloads the task; no link when the
// page already shows the task as it is now (it closed meanwhile).
type Conflict struct {
	Message    string
	ReloadHref string
}

// TaskForm is the completion form, or a read-only view of the values.
type TaskForm struct {
	Command
	Editable     bool
	HasSchema    bool
	Fields       []Field
	Actions      []ActionButton
	RevealAction string
	Error        string // general form error (role=alert)
}

// ActionButton submits the form with one action key.
type ActionButton struct {
	Key   string
	Label string
}

// Field is one form input.
type Field struct {
	Key       string
	ID        string
	Label     string
	Type      string // forms.Type*: text, textarea, number, integer, date, datetime, select, radio, checkbox, email, url
	Help      string
	Format    string // what a valid value looks like (x-ui formatHint)
	Required  bool
	Masked    bool
	Revealed  bool   // a masked value is shown (after Reveal)
	HasValue  bool   // a value is present (for read-only display)
	Value     string // the input's value
	AsText    bool   // a number field holding text that is not a number: shown as text, as typed
	Display   string // the read-only text when it differs from Value (dates); "" otherwise
	Checked   bool
	Options   []Option
	Error     string
	Min       string
	Max       string
	Step      string
	MinLength string
	MaxLength string
}

// ManagePanel holds the manager's forms; each is nil when the command is not allowed now.
type ManagePanel struct {
	Assign     *AssignForm
	Schedule   *ScheduleForm
	Retry      *RetryForm
	Cancel     *CancelForm
	Candidates *CandidateList // people.go
	// Invitations are the guest links (task_invitations.go); nil when the panel has none.
	Invitations *InvitationPanel
	// FindPeople: a participant directory can be searched, so people are chosen by name
	// (Check access, the health review's assign fix) instead of typed as ids.
	FindPeople bool
}

// AssignForm assigns the task to a user id.
type AssignForm struct {
	Command
	Assignee string
	Reason   string
	Errors   map[string]string // assignee, reason, form
	People   *PeoplePicker     // people.go; nil without a directory search
}

// ScheduleForm changes priority and due date.
type ScheduleForm struct {
	Command
	Priority string
	Due      string // datetime-local, UTC
	ClearDue bool
	Errors   map[string]string // priority, due, form
}

// RetryForm retries resolution.
type RetryForm struct {
	Command
	Error string
}

// CancelForm cancels with a reason.
type CancelForm struct {
	Command
	Reason string
	Errors map[string]string // reason, form
}

// WorkflowInfo is the Workflow section.
type WorkflowInfo struct {
	DefinitionID       string
	DefinitionName     string
	Version            *int
	InstanceID         string
	InstanceReference  string
	ActivityInstanceID string
	BookmarkID         string
	Snapshot           bool
}

// History is the History section: one page of events.
type History struct {
	Events    []EventRow
	NextHref  string
	FirstHref string
}

// EventRow is one history entry.
type EventRow struct {
	Type     models.EventType
	At       time.Time
	Actor    string // "" for the system
	Reason   string
	Revision int
	Summary  string // the whole line when the event says more ("Assigned to Ann Lee by Max")
}

// ----- Login and errors -----

// LoginPage is /login.
type LoginPage struct {
	Chrome
	DevUsers  []DevUser
	DevAction string
	OIDCHref  string
	Next      string
	Error     string
}

// DevUser is one demo user of the dev login.
type DevUser struct {
	Key     string // posted back
	ID      string
	Name    string
	Tenant  string
	Groups  []string
	Manager bool
	Shows   string // what signing in as the user shows (the demo's label), in the page's language
}

// ErrorPage is an error answer rendered as a page.
type ErrorPage struct {
	Chrome
	Status  int
	Heading string
	Message string
}

// ZoneName names the zone the page's times are shown in, for the footer note and the labels of
// date inputs.
func (c Chrome) ZoneName() string {
	if c.Location == nil {
		return "UTC"
	}
	return c.Location.String()
}
