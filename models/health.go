package models

// HealthCodes lists every health code of SPEC 3.8 that the service records, in the order the
// pages offer them. A filter naming any other code is refused.
var HealthCodes = []string{
	HealthNoParticipants,
	HealthSnapshotResolutionFailed,
	HealthSnapshotDirectoryMissing,
	HealthFormProviderMissing,
	HealthFormResolutionFailed,
	HealthStaleTransition,
	HealthResumeDeliveryFailing,
	HealthInvitationDeliveryFailing,
	HealthNotificationDeliveryFailing,
	HealthRuntimeAnswerAmbiguous,
	HealthDeadlineMissed,
}

// KnownHealthCode reports whether code is one of HealthCodes.
func KnownHealthCode(code string) bool {
	for _, c := range HealthCodes {
		if c == code {
			return true
		}
	}
	return false
}

// Valid reports whether s is a severity a finding can have (SeverityNone is no finding).
func (s Severity) Valid() bool { return s == SeverityAdvisory || s == SeverityBlocking }

// Remedy is what a manager does about a health finding.
type Remedy string

const (
	// RemedyRetryResolution: resolve the task's form and participants again (after fixing the
	// configuration the finding names).
	RemedyRetryResolution Remedy = "retry-resolution"
	// RemedyAssign: give the task to someone who can do it.
	RemedyAssign Remedy = "assign"
	// RemedyCancel: the workflow no longer waits for the task; cancel it.
	RemedyCancel Remedy = "cancel"
	// RemedyWait: the service retries on its own; wait, or check the workflow runtime.
	RemedyWait Remedy = "wait"
	// RemedyCheckDelivery: nothing to do on the task; fix the delivery channel that failed for
	// good (the mail server, the webhook receiver, the directory). The finding clears itself
	// once the task's next delivery on that channel goes out.
	RemedyCheckDelivery Remedy = "check-delivery"
)

// remedies maps each health code to the action that clears it.
var remedies = map[string]Remedy{
	HealthNoParticipants:              RemedyAssign,
	HealthSnapshotResolutionFailed:    RemedyRetryResolution,
	HealthSnapshotDirectoryMissing:    RemedyRetryResolution,
	HealthFormProviderMissing:         RemedyRetryResolution,
	HealthFormResolutionFailed:        RemedyRetryResolution,
	HealthStaleTransition:             RemedyWait,
	HealthResumeDeliveryFailing:       RemedyWait,
	HealthInvitationDeliveryFailing:   RemedyAssign,
	HealthNotificationDeliveryFailing: RemedyCheckDelivery,
	HealthRuntimeAnswerAmbiguous:      RemedyCancel,
	HealthDeadlineMissed:              RemedyAssign,
}

// RemedyFor is the action that clears a finding with code; an unknown code is RemedyWait
// (nothing to press, look at the task's history).
func RemedyFor(code string) Remedy {
	if r, ok := remedies[code]; ok {
		return r
	}
	return RemedyWait
}
