// Package i18n holds the web pages' message catalogues (English and German) and picks one from
// the Accept-Language header.
//
// The catalogue is a typed Go struct rather than message files: every string the pages show is
// a field, so a missing or misspelt key is a compile error, a missing translation is caught by a
// test that walks the struct, and templates call `m.T.Inbox` instead of looking strings up by
// name. Two languages with the same simple plural rule (one / other) need none of the CLDR
// plural machinery or runtime file loading of a general i18n library.
package i18n

import (
	"fmt"
	"regexp"
	"time"

	"golang.org/x/text/language"

	"usertasks/models"
)

// Catalog is one language's messages. Fields holding `%s` or `%d` are format strings used by
// the methods below; [2]string fields are the singular and plural of a counted phrase.
type Catalog struct {
	Lang string // BCP 47 tag for the html lang attribute

	Views ViewsText // the inbox's sorting, status and workflow filters, saved views
	Lists ListsText // the inbox's status groups

	Language LanguageText // the header's language switcher (catalog_language.go)

	// Chrome.
	AppName       string
	SkipToContent string
	MainNav       string
	NavInbox      string
	SignedInAs    string
	TenantLabel   string
	ManagerRole   string
	SignOut       string
	Dismiss       string

	// Browser sessions: the user menu's button that ends every session of the person, and
	// the message after it.
	SignOutEverywhere        string
	FlashSignedOutEverywhere string

	// Dash is the managers' dashboard and runs page.
	Dash DashText

	// Statuses, events, scopes, sorts, due filters.
	Statuses   map[models.Status]string
	Events     map[models.EventType]string
	Scopes     map[models.Scope]string
	Sorts      map[models.SortKey]string
	DueFilters map[models.DueFilter]string

	// Priority and dates.
	PriorityLabel  string
	PriorityHigh   string
	PriorityNormal string
	PriorityLow    string
	DueLabel       string
	NoDue          string
	Overdue        string
	DueIn          string // "due %s" with a relative time
	Months         [12]string
	DateFormat     string // day, month name, year, hour, minute, zone
	JustNow        string
	FutureFormat   string // "in %s"
	PastFormat     string // "%s ago"
	Minutes        [2]string
	Hours          [2]string
	Days           [2]string
	MonthsCount    [2]string
	TimeZoneNote   string
	UTCSuffix      string

	// Inbox.
	InboxTitle          string
	TaskLists           string
	Filters             string
	Search              string
	SearchPlaceholder   string
	StatusLabel         string
	AnyStatus           string
	PriorityFrom        string
	PriorityTo          string
	AnyDue              string
	WorkflowLabel       string
	WorkflowPlaceholder string
	SortLabel           string
	DirectionLabel      string
	DirectionDefault    string
	Ascending           string
	Descending          string
	PageSizeLabel       string
	Apply               string
	ClearFilters        string
	TaskCount           [2]string
	ColTask             string
	ColStatus           string
	ColPriority         string
	ColDue              string
	ColAssignee         string
	ColUpdated          string
	ColActions          string
	ClosedBy            string // "by %s", after the closing time
	ClosedByYou         string
	Claim               string
	Release             string
	Unassigned          string
	You                 string
	EmptyTitles         map[models.Scope]string
	EmptyHints          map[models.Scope]string
	EmptyFiltered       string
	EmptyFilteredHint   string
	ListErrorTitle      string
	ListErrorText       string
	CursorInvalid       string
	FiltersInvalid      string
	TryAgain            string
	FirstPage           string
	Pagination          string
	Previous            string
	Next                string
	WholeNumber0to100   string
	InvalidChoice       string
	PriorityRangeOrder  string

	// Task page.
	BackToInbox         string
	TaskSections        string
	SectionTask         string
	SectionWorkflow     string
	SectionHistory      string
	TypeLabel           string
	ReferenceLabel      string
	TagsLabel           string
	RequesterLabel      string
	AssigneeLabel       string
	CreatedLabel        string
	UpdatedLabel        string
	AssignedLabel       string
	CompletedLabel      string
	CandidatesLabel     string
	CandidateUsers      [2]string
	CandidateGroups     [2]string
	NoCandidates        string
	OutcomeLabel        string
	OutcomeFormat       string // action, person
	DetailsLabel        string
	Instructions        string
	FormHeading         string
	Required            string
	RequiredNote        string
	ChooseOption        string
	MaskedValue         string
	MaskedKeep          string
	FormatHint          string // %s: the form's description of a valid value
	Reveal              string
	RevealNote          string
	Revealed            string
	Yes                 string
	No                  string
	EmptyValue          string
	NoFormNote          string
	ActionsLabel        string
	FormHasErrors       string
	ProtectedHidden     string
	Reload              string
	ConflictRevision    string
	ConflictTerminal    string
	ConflictTransition  string
	ConflictClaim       string
	ConflictIdempotency string
	AcceptedBanner      string
	CancellingBanner    string
	TimingOutBanner     string
	ClosedBanner        string // %s: the status
	ReadOnlyCandidate   string
	ReadOnlyManager     string
	ReadOnlyOther       string
	HealthBlocking      string
	HealthAdvisory      string
	OpensInNewTab       string

	// Manage panel.
	ManageHeading        string
	AssignHeading        string
	AssignUser           string
	AssignUserHelp       string
	ReasonOptional       string
	AssignSubmit         string
	ScheduleHeading      string
	PriorityField        string
	DueField             string
	ClearDue             string
	ScheduleSubmit       string
	RetryHeading         string
	RetryHelp            string
	RetrySubmit          string
	CancelHeading        string
	CancelHelp           string
	CancelReason         string
	CancelSubmit         string
	ReasonRequired       string
	AssigneeRequired     string
	DueInvalid           string
	ExcludedAssignee     string
	CrossTenantAssignee  string
	CancellationDisabled string
	FormUnavailable      string
	InvalidAction        string
	PayloadTooLarge      string
	CheckValues          string

	// Flash messages.
	FlashClaimed      string // %s: title
	FlashReleased     string // %s: title
	FlashAssigned     string
	FlashScheduled    string
	FlashRetried      string
	FlashRetryNote    string // %s: the remaining advisory finding in words
	FlashRetryBlocked string // %s: why the task is still blocked
	FlashSignedOut    string

	// Workflow and history tabs.
	WorkflowDefinition string
	WorkflowName       string
	WorkflowVersion    string
	WorkflowInstance   string
	WorkflowReference  string
	ActivityInstance   string
	BookmarkLabel      string
	MembershipLabel    string
	MembershipLive     string
	MembershipSnapshot string
	HistoryEmpty       string
	HistoryWhen        string
	HistoryWhat        string
	HistoryWho         string
	HistoryReason      string
	SystemActor        string
	ShowLater          string
	FromStart          string

	// Login.
	LoginTitle    string
	LoginIntro    string
	OIDCSignIn    string
	DevHeading    string
	DevIntro      string
	SignInAs      string // %s: display name
	GroupsLabel   string
	NoGroups      string
	NoLoginMethod string
	LoginFailed   string

	// Error pages.
	NotFoundTitle   string
	NotFoundText    string
	ForbiddenTitle  string
	ForbiddenText   string
	CSRFText        string
	BusyTitle       string
	BusyText        string
	InternalTitle   string
	InternalText    string
	BadRequestTitle string
	BadRequestText  string
	GoToInbox       string

	// Health findings (SPEC 3.8) by code: a short name for badges and a sentence saying what
	// is wrong and what to do. Pages show these, never the code or the stored English message.
	HealthNames       map[string]string
	HealthTexts       map[string]string
	HealthUnknownName string
	HealthUnknownText string
	HealthReview      HealthReviewText // explanations, remedies, filters and attention reasons

	// Problems are the sentences for the error codes of SPEC 5.1 that have no field of their
	// own above; Problem picks the one for any code.
	Problems       map[models.Code]string
	ProblemUnknown string

	// DefaultAction labels the one action a task gets when its workflow declares none.
	DefaultAction string

	// Mailbox is the dev mailbox page (catalog_mailbox.go).
	Mailbox MailboxText
	// DemoUsers labels the dev login's demo users (catalog_demo.go).
	DemoUsers DemoUsersText
	// Access is "Check access" (catalog_access.go).
	Access AccessText
	// Labels puts the task page's codes and refusals into words (catalog_labels.go).
	Labels LabelsText
	// Bulk is the managers' bulk actions (catalog_bulk.go).
	Bulk BulkText
	// People is the people picker and the participant names (catalog_people.go).
	People PeopleText
	// AssigneeFilter is the inbox's assignee filter (catalog_assignee_filter.go).
	AssigneeFilter AssigneeFilterText
	// Invitations is the Manage panel's guest links (catalog_invitations.go).
	Invitations InvitationsText
	// Activity is the task page's comments and files (catalog_activity.go).
	Activity ActivityText
	// Notifications is the bell, the notifications page and its settings (catalog_notifications.go).
	Notifications NotificationsText
	// Guest is the guest page (catalog_guest.go).
	Guest GuestText
	// Total is a list's total, exact or capped (catalog_total.go).
	Total TotalText
	// ShortSearch explains 1–2 character searches (catalog_short_search.go).
	ShortSearch ShortSearchText
	// Unsubscribe is the page of a notification mail's unsubscribe link (catalog_unsubscribe.go).
	Unsubscribe UnsubscribeText
	// Deadlines is the task page's Deadlines block and their History line (catalog_deadlines.go).
	Deadlines DeadlinesText
	// Policies is the managers' default deadline pages (catalog_policies.go).
	Policies PoliciesText
	// Delegation is Delegate and Return, the inbox's stand-ins and the Out of office pages
	// (catalog_delegation.go).
	Delegation DelegationText

	// fieldMessages translates the short English messages of form validation (forms and
	// models) by pattern; English leaves them as they are.
	fieldMessages []fieldMessage
}

// Supported lists the catalogues in order of preference; the first is the fallback.
var Supported = []*Catalog{english, german}

var matcher = language.NewMatcher([]language.Tag{language.English, language.German})

// Match picks the catalogue for an Accept-Language header value; English when nothing fits.
func Match(acceptLanguage string) *Catalog {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return english
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return english
	}
	return Supported[i]
}

// English returns the English catalogue.
func English() *Catalog { return english }

// German returns the German catalogue.
func German() *Catalog { return german }

// Status names a status.
func (c *Catalog) Status(s models.Status) string { return or(c.Statuses[s], string(s)) }

// Event names an event type.
func (c *Catalog) Event(t models.EventType) string { return or(c.Events[t], string(t)) }

// Scope names an inbox tab.
func (c *Catalog) Scope(s models.Scope) string { return or(c.Scopes[s], string(s)) }

// Sort names a sort key.
func (c *Catalog) Sort(k models.SortKey) string { return or(c.Sorts[k], string(k)) }

// Due names a due filter.
func (c *Catalog) Due(d models.DueFilter) string { return or(c.DueFilters[d], string(d)) }

// Count renders a counted phrase: forms[0] for one, forms[1] otherwise.
func (c *Catalog) Count(forms [2]string, n int) string {
	if n == 1 {
		return fmt.Sprintf(forms[0], n)
	}
	return fmt.Sprintf(forms[1], n)
}

// Tasks renders "3 tasks".
func (c *Catalog) Tasks(n int) string { return c.Count(c.TaskCount, n) }

// Priority renders a priority as words and number, e.g. "High · 80".
func (c *Catalog) Priority(p int) string {
	return c.PriorityLevel(p) + " · " + fmt.Sprint(p)
}

// PriorityLevel is the word for a priority: high from 75, low up to 25.
func (c *Catalog) PriorityLevel(p int) string {
	switch {
	case p >= 75:
		return c.PriorityHigh
	case p <= 25:
		return c.PriorityLow
	}
	return c.PriorityNormal
}

// Date renders an absolute time in its own zone, e.g. "14 Mar 2026, 09:30 UTC". Pages call
// it through views.Clock, which picks the zone.
func (c *Catalog) Date(t time.Time) string {
	zone, _ := t.Zone()
	return fmt.Sprintf(c.DateFormat, t.Day(), c.Months[t.Month()-1], t.Year(), t.Hour(), t.Minute(), zone)
}

// Relative renders t relative to now: "in 3 days", "2 hours ago", "just now".
func (c *Catalog) Relative(t, now time.Time) string {
	d, future := distance(t, now)
	if d < time.Minute {
		return c.JustNow
	}
	return c.direction(future, c.span(d, false))
}

// distance is how far t is from now, and whether it lies ahead.
func distance(t, now time.Time) (time.Duration, bool) {
	d := t.Sub(now)
	if d > 0 {
		return d, true
	}
	return -d, false
}

// span says d in the largest unit of which it holds fewer than the next unit's worth
// (minutes, hours up to two days, days up to 60, months): whole units, or rounded to the
// nearest when round is set (Approximate) — the unit then switches after the rounding.
func (c *Catalog) span(d time.Duration, round bool) string {
	n := func(unit time.Duration) int {
		if round {
			return int((d + unit/2) / unit)
		}
		return int(d / unit)
	}
	switch {
	case n(time.Minute) < 60:
		return c.Count(c.Minutes, n(time.Minute))
	case n(time.Hour) < 48:
		return c.Count(c.Hours, n(time.Hour))
	case n(24*time.Hour) < 60:
		return c.Count(c.Days, n(24*time.Hour))
	default:
		return c.Count(c.MonthsCount, n(30*24*time.Hour))
	}
}

// direction puts a span into the future ("in …") or the past ("… ago").
func (c *Catalog) direction(future bool, phrase string) string {
	if future {
		return fmt.Sprintf(c.FutureFormat, phrase)
	}
	return fmt.Sprintf(c.PastFormat, phrase)
}

// HealthName is the short name of a health code, for badges.
func (c *Catalog) HealthName(code string) string { return or(c.HealthNames[code], c.HealthUnknownName) }

// HealthText is the sentence for a health code: what is wrong and what to do.
func (c *Catalog) HealthText(code string) string { return or(c.HealthTexts[code], c.HealthUnknownText) }

// Problem is the sentence for an error code; pages never show the code itself.
func (c *Catalog) Problem(code models.Code) string {
	switch code {
	case models.CodeRevisionConflict:
		return c.ConflictRevision
	case models.CodeTerminal:
		return c.ConflictTerminal
	case models.CodeTransitionInProgress:
		return c.ConflictTransition
	case models.CodeNotClaimable:
		return c.ConflictClaim
	case models.CodeIdempotencyConflict:
		return c.ConflictIdempotency
	case models.CodeInvalidAction:
		return c.InvalidAction
	case models.CodeFormUnavailable:
		return c.FormUnavailable
	case models.CodePayloadTooLarge:
		return c.PayloadTooLarge
	case models.CodeCancellationDisabled:
		return c.CancellationDisabled
	case models.CodeReasonRequired:
		return c.ReasonRequired
	case models.CodeExcludedAssignee:
		return c.ExcludedAssignee
	case models.CodeCrossTenantAssignee:
		return c.CrossTenantAssignee
	case models.CodeValidationFailed:
		return c.CheckValues
	case models.CodeNotFound:
		return c.NotFoundText
	case models.CodeForbidden:
		return c.ForbiddenText
	case models.CodeDatabaseBusy:
		return c.BusyText
	case models.CodeMalformedRequest, models.CodeMethodNotAllowed:
		return c.BadRequestText
	case models.CodeCSRFRefused:
		return c.CSRFText
	case models.CodeInternal:
		return c.InternalText
	}
	return or(c.Problems[code], c.ProblemUnknown)
}

// Format fills a format-string field.
func (c *Catalog) Format(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// FieldMessage translates a short validation message produced by the forms and models packages
// ("is required", "must be at most 200 characters"); unknown messages are shown as they are.
func (c *Catalog) FieldMessage(msg string) string {
	for _, m := range c.fieldMessages {
		if m.pattern.MatchString(msg) {
			return m.pattern.ReplaceAllString(msg, m.replace)
		}
	}
	return msg
}

// fieldMessage is one translation: a whole-message pattern and its replacement ($1 keeps a
// number from the original).
type fieldMessage struct {
	pattern *regexp.Regexp
	replace string
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
