package models

// Status is the lifecycle state of a task.
type Status string

const (
	StatusUnassigned Status = "Unassigned"
	StatusAvailable  Status = "Available"
	StatusAssigned   Status = "Assigned"
	StatusCompleting Status = "Completing"
	StatusTimingOut  Status = "TimingOut"
	StatusCancelling Status = "Cancelling"
	StatusCompleted  Status = "Completed"
	StatusTimedOut   Status = "TimedOut"
	StatusCancelled  Status = "Cancelled"
)

// OpenStatuses are the states in which people can still act on a task.
var OpenStatuses = []Status{StatusUnassigned, StatusAvailable, StatusAssigned}

// TransitionalStatuses wait for the workflow runtime to remove the bookmark.
var TransitionalStatuses = []Status{StatusCompleting, StatusTimingOut, StatusCancelling}

// TerminalStatuses never change again.
var TerminalStatuses = []Status{StatusCompleted, StatusTimedOut, StatusCancelled}

// AllStatuses lists every status in lifecycle order.
var AllStatuses = append(append(append([]Status{}, OpenStatuses...), TransitionalStatuses...), TerminalStatuses...)

func (s Status) IsOpen() bool         { return in(s, OpenStatuses) }
func (s Status) IsTransitional() bool { return in(s, TransitionalStatuses) }
func (s Status) IsTerminal() bool     { return in(s, TerminalStatuses) }
func (s Status) Valid() bool          { return in(s, AllStatuses) }

// CountsAsOpen reports whether the task counts against the tenant's capacity (open or transitional).
func (s Status) CountsAsOpen() bool { return s.IsOpen() || s.IsTransitional() }

func in(s Status, set []Status) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

// Severity of a health finding.
type Severity string

const (
	SeverityNone     Severity = ""
	SeverityAdvisory Severity = "advisory"
	SeverityBlocking Severity = "blocking"
)

// Health codes of SPEC 3.8.
const (
	HealthNoParticipants            = "no-participants"
	HealthSnapshotResolutionFailed  = "snapshot-resolution-failed"
	HealthSnapshotDirectoryMissing  = "snapshot-directory-missing"
	HealthFormProviderMissing       = "form-provider-missing"
	HealthFormResolutionFailed      = "form-resolution-failed"
	HealthStaleTransition           = "stale-transition"
	HealthResumeDeliveryFailing     = "resume-delivery-failing"
	HealthInvitationDeliveryFailing = "invitation-delivery-failing"
	// HealthNotificationDeliveryFailing (advisory): a notification of the task failed for good
	// on one of its channels (email, webhook, or the in-app row itself); cleared when a later
	// notification of the task goes out on that channel.
	HealthNotificationDeliveryFailing = "notification-delivery-failing"
	// HealthRuntimeAnswerAmbiguous (advisory): reconciliation asked the runtime for the task's
	// bookmark and got neither the bookmark nor its exact bookmark-not-found answer (a proxy's
	// 404, an error, no answer), so it left the task as it was.
	HealthRuntimeAnswerAmbiguous = "runtime-answer-ambiguous"
)

// Health is a safe, separate-from-status finding about a task.
type Health struct {
	Severity Severity
	Code     string
	Message  string
}

// Blocking reports whether the finding hides the task from everyone but managers.
func (h Health) Blocking() bool { return h.Severity == SeverityBlocking }
