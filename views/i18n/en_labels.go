package i18n

import "usertasks/models"

var englishLabels = LabelsText{
	ConflictKept:      "This task changed since you opened it, so nothing was saved. Your input is kept below; reload to see the latest version.",
	StaleCompleted:    "This task was completed by %s on %s.",
	StaleCancelled:    "This task was cancelled by %s on %s.",
	StaleTimedOut:     "This task timed out on %s.",
	StaleByYou:        "you",
	StaleBySomeone:    "the workflow",
	StaleNothingSaved: "Nothing you sent was saved.",

	FormRequested:    "Requested form",
	FormRef:          "“%s”, version %s, from the form provider “%s”.",
	FormRefLatest:    "“%s”, latest version, from the form provider “%s”.",
	FormWhereFiles:   "The form provider “%s” reads the folder that %s names on this server (<folder>/<form>/<version>.json): check that the form's file is there and valid, then retry.",
	FormWhereUnknown: "No form provider “%s” is configured on this server. The built-in provider is “%s”, configured with %s; a provider of another name is added by the program that embeds User Tasks. Configure it, or have the workflow name a configured provider, then retry.",
	FormLastAttempt:  "Last attempt",
	RetryFailedAgain: "Resolution retried, but the task is still blocked: it failed again. %s",
	PriorityTitle:    "Priority %s of 100",
	ZoneLabel:        "%s time (%s)",
	AccessAssumed:    "Another person's permissions are not known here, so they are assumed to hold what each step needs: %s.",
	Quoted:           "“%s”",
	AccessFind:       "Person or group",
	AccessFindHelp:   "Search by name, then choose from the results.",
	TaskTypes: map[string]string{
		"approval": "Approval", "review": "Review", "verification": "Verification", "sign-off": "Sign-off",
		"response": "Response", "triage": "Triage", "reconciliation": "Reconciliation", "renewal": "Renewal",
	},
	Permissions: map[string]string{
		"*":                         "every permission",
		"user-tasks:*":              "every task permission",
		"*:view":                    "viewing everything",
		models.PermView:             "viewing tasks",
		models.PermClaim:            "claiming tasks",
		models.PermComplete:         "completing tasks",
		models.PermAssign:           "assigning tasks",
		models.PermUpdate:           "changing priority and due date",
		models.PermCancel:           "cancelling tasks",
		models.PermInvite:           "inviting guests",
		models.PermSupervise:        "supervising tasks",
		models.PermParticipantsView: "looking up people",
		models.PermRuntimeWrite:     "acting for the workflow runtime",
	},
	FormFailures: map[models.FormFailure]string{
		models.FormProviderUnknown: "No form provider of this name is configured on this server.",
		models.FormNotFound:        "The form provider does not know this form or version.",
		models.FormInvalid:         "The form provider answered with something that is not a valid form.",
		models.FormUnavailable:     "The form provider did not answer: it is unreachable, timed out or could not read the form.",
	},
}
