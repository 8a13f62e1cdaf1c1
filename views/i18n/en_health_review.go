package i18n

import "usertasks/models"

var englishHealthReview = HealthReviewText{
	Meanings: map[string]string{
		models.HealthNoParticipants:              "Nobody can work on this task: it has no assignee, no candidates and no guest invitations.",
		models.HealthSnapshotResolutionFailed:    "The task's candidate groups could not be expanded into their members, so nobody from those groups sees it yet.",
		models.HealthSnapshotDirectoryMissing:    "The task expands its candidate groups into members, but there is no participant directory to look them up in.",
		models.HealthFormProviderMissing:         "The task's form comes from a form provider this service does not know, so the form cannot be shown.",
		models.HealthFormResolutionFailed:        "The task's form could not be loaded from its form provider, or what came back is not a valid form.",
		models.HealthStaleTransition:             "The task was completed, timed out or cancelled here, but the workflow has not confirmed it yet.",
		models.HealthResumeDeliveryFailing:       "The task's outcome has not reached the workflow: every delivery so far has failed.",
		models.HealthInvitationDeliveryFailing:   "A guest invitation of this task could not be delivered to its recipient.",
		models.HealthNotificationDeliveryFailing: "A notification about this task failed for good: someone was not told by email, by the notification webhook, or at all.",
		models.HealthRuntimeAnswerAmbiguous:      "Reconciliation asked the workflow runtime about this task and got an unclear answer, so it left the task as it was.",
		models.HealthDeadlineMissed:              "A start or completion deadline of this task passed and fired its escalation.",
	},
	Causes: map[string]string{
		models.HealthNoParticipants:              "The workflow created the task without an assignee, candidate users or groups, or invitations.",
		models.HealthSnapshotResolutionFailed:    "The participant directory failed or did not answer when the task was created.",
		models.HealthSnapshotDirectoryMissing:    "No participant directory is configured on this server.",
		models.HealthFormProviderMissing:         "The workflow names a form provider that is not configured on this server.",
		models.HealthFormResolutionFailed:        "The form provider failed, did not answer, or returned a schema with errors.",
		models.HealthStaleTransition:             "The workflow runtime has not removed the task's bookmark: it may be down, slow, or failing on the outcome.",
		models.HealthResumeDeliveryFailing:       "The workflow runtime cannot be reached or refuses the outcome (check its address, secret and logs).",
		models.HealthInvitationDeliveryFailing:   "The invitation's delivery channel failed or refused the recipient's address.",
		models.HealthNotificationDeliveryFailing: "The mail server refused the address or was unreachable, the webhook receiver kept failing, or the directory did not answer, through every retry (the finding's message in the API names the channel; the background runs page shows the failures).",
		models.HealthRuntimeAnswerAmbiguous:      "The runtime answered with an error, or with a 404 that was not its own \"bookmark not found\" (a proxy, a wrong path).",
		models.HealthDeadlineMissed:              "Nobody took the task in time, or it was not finished in time (the deadlines the workflow declared).",
	},
	Remedies: map[models.Remedy]string{
		models.RemedyRetryResolution: "Fix the cause, then retry the resolution: the service loads the form and expands the groups again.",
		models.RemedyAssign:          "Assign the task to someone who can work on it.",
		models.RemedyCancel:          "If the workflow instance no longer waits for this task, cancel it.",
		models.RemedyWait:            "Nothing to press: the service keeps retrying on its own. Wait, or check the workflow runtime.",
		models.RemedyCheckDelivery:   "Nothing to press on the task: fix the channel that failed. The finding clears when the task's next notification goes out on it.",
	},
	Buttons: map[models.Remedy]string{
		models.RemedyRetryResolution: "Retry resolution",
		models.RemedyAssign:          "Assign",
		models.RemedyCancel:          "Cancel task",
	},
	UnknownMeaning: "The task has a finding this page cannot describe.",
	UnknownCause:   "Its history may tell more.",
	WhyLabel:       "Why it happened",
	FixLabel:       "What fixes it",

	CodeFilter:     "Health",
	SeverityFilter: "Severity",
	AnySeverity:    "Any severity",

	ReasonsLabel:          "Needs attention because",
	ReasonOverdue:         "Overdue",
	ReasonStaleSince:      "Waiting for the workflow since",
	ReasonUnassignedSince: "Unassigned since",
}
