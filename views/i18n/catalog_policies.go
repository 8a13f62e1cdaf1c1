package i18n

// PoliciesText is the managers' default deadline pages (/manage/deadline-policies, issue 30
// item 4): which workflow definitions give their new tasks deadlines by default, the form that
// sets them (the deadlines as JSON, as a projection sends them) and who changed them when.
type PoliciesText struct {
	Title    string // the list page
	Intro    string // what a default does, and when it applies
	DashLink string // the dashboard's link to the list

	ColWorkflow string
	ColPolicy   string
	ColChanged  string
	NoPolicy    string // a definition without defaults
	Edit        string // the row's link
	Empty       string // no definition known yet

	OtherLegend string // a definition without tasks yet
	OtherLabel  string
	OtherHelp   string
	Open        string

	EditTitle  string // %s: the workflow's name or id
	IDLabel    string // "Workflow definition id"
	Current    string // heading of the current defaults
	NoneYet    string
	ChangedBy  string // %s: revision, %s: who, %s: when
	After      string // %s: the ISO 8601 duration
	At         string // %s: the time
	JSONLabel  string
	JSONHelp   string
	Example    string // heading of the worked example
	Save       string
	Delete     string
	DeleteHelp string
	Back       string

	ErrorsHead  string // the form's refusal, the field messages follow
	InvalidJSON string
	Conflict    string // someone saved or removed meanwhile

	AuditHead     string
	AuditNone     string
	AuditRevision string
	AuditWhat     string
	AuditWho      string
	AuditWhen     string
	AuditPut      string
	AuditDelete   string

	// HistoryCreated is the task History line of a task created with the defaults; %s: the
	// policy's revision.
	HistoryCreated string

	FlashSaved   string
	FlashDeleted string
}
