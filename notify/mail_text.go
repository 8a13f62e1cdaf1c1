package notify

import (
	"usertasks/models"
	"usertasks/views/i18n"
)

// mailText is one language's words of notification email. As the pages' catalogues
// (views/i18n), a typed struct: a missing key is a compile error, a missing translation fails
// TestMailTextComplete. Dates, months and priority words come from the pages' catalogue of the
// same language (Page), so a mail says a time as the pages do.
type mailText struct {
	Page *i18n.Catalog

	// Subjects by trigger: "%s" is the task's title.
	Subjects map[models.NotificationTrigger]string
	// Leads open a single mail: with the actor's name ("%s assigned …"), and without one.
	Leads        map[models.NotificationTrigger]string
	LeadsNoActor map[models.NotificationTrigger]string
	// Names name a trigger's email in the footer and on the unsubscribe page.
	Names map[models.NotificationTrigger]string
	// Events are a digest's lines: what happened, "%s" the actor's name (ByActor).
	Events  map[models.NotificationTrigger]string
	ByActor string

	Reference string
	Workflow  string
	Due       string
	Priority  string
	Open      string // the task link's words

	// Why says why the mail came: "%s" is the trigger's name.
	Why         string
	Unsubscribe string // the one-click link's words
	Settings    string // the link to the notification settings
	Automatic   string // no replies

	// Digests. DigestSubject: the period's title (DigestOff: the last digest after the person
	// turned digests off), then the counted updates and tasks.
	DigestSubject map[models.DigestPeriod]string
	Updates       [2]string // "%d update", "%d updates"
	OnTasks       [2]string // "on %d task", "on %d tasks"
	DigestIntro   string
	DigestWhy     string
	DigestStop    string // the one-click link's words in a digest
}

// mailTextFor picks the words for a person's language: German for "de…", else English.
func mailTextFor(language string) *mailText {
	if len(language) >= 2 && (language[:2] == "de" || language[:2] == "DE") {
		return germanMail
	}
	return englishMail
}

var englishMail = &mailText{
	Page: i18n.English(),
	Subjects: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "New task available: %s",
		models.TriggerTaskAssigned:  "Assigned to you: %s",
		models.TriggerDueSoon:       "Due soon: %s",
		models.TriggerOverdue:       "Overdue: %s",
		models.TriggerEscalated:     "Escalated: %s",
		models.TriggerMentioned:     "You were mentioned: %s",
		models.TriggerCommentAdded:  "New comment: %s",
		models.TriggerReturned:      "Returned to you: %s",
	},
	Leads: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "%s made this task available to you.",
		models.TriggerTaskAssigned:  "%s assigned this task to you.",
		models.TriggerDueSoon:       "This task is due soon.",
		models.TriggerOverdue:       "This task is overdue.",
		models.TriggerEscalated:     "%s escalated this task.",
		models.TriggerMentioned:     "%s mentioned you on this task.",
		models.TriggerCommentAdded:  "%s commented on this task.",
		models.TriggerReturned:      "%s returned this task to you.",
	},
	LeadsNoActor: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "A new task is available to you.",
		models.TriggerTaskAssigned:  "This task was assigned to you.",
		models.TriggerDueSoon:       "This task is due soon.",
		models.TriggerOverdue:       "This task is overdue.",
		models.TriggerEscalated:     "This task was escalated.",
		models.TriggerMentioned:     "You were mentioned on this task.",
		models.TriggerCommentAdded:  "There is a new comment on this task.",
		models.TriggerReturned:      "This task was returned to you.",
	},
	Names: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "New task available",
		models.TriggerTaskAssigned:  "Assigned to you",
		models.TriggerDueSoon:       "Due soon",
		models.TriggerOverdue:       "Overdue",
		models.TriggerEscalated:     "Escalated",
		models.TriggerMentioned:     "Mentioned",
		models.TriggerCommentAdded:  "New comment",
		models.TriggerReturned:      "Returned to you",
	},
	Events: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "Available to you",
		models.TriggerTaskAssigned:  "Assigned to you",
		models.TriggerDueSoon:       "Due soon",
		models.TriggerOverdue:       "Overdue",
		models.TriggerEscalated:     "Escalated",
		models.TriggerMentioned:     "You were mentioned",
		models.TriggerCommentAdded:  "New comment",
		models.TriggerReturned:      "Returned to you",
	},
	ByActor:     "by %s",
	Reference:   "Reference",
	Workflow:    "Workflow",
	Due:         "Due",
	Priority:    "Priority",
	Open:        "Open the task",
	Why:         "You get this email because email for “%s” is on in your notification settings.",
	Unsubscribe: "Unsubscribe from these emails",
	Settings:    "Notification settings",
	Automatic:   "This message was sent automatically; replies are not read.",
	DigestSubject: map[models.DigestPeriod]string{
		models.DigestOff:    "Your task summary",
		models.DigestHourly: "Your hourly task summary",
		models.DigestDaily:  "Your daily task summary",
	},
	Updates:     [2]string{"%d update", "%d updates"},
	OnTasks:     [2]string{"on %d task", "on %d tasks"},
	DigestIntro: "Here is what happened on your tasks, newest first.",
	DigestWhy:   "You get this summary instead of single emails because you chose it in your notification settings.",
	DigestStop:  "Stop notification emails",
}

var germanMail = &mailText{
	Page: i18n.German(),
	Subjects: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "Neue Aufgabe verfügbar: %s",
		models.TriggerTaskAssigned:  "Ihnen zugewiesen: %s",
		models.TriggerDueSoon:       "Bald fällig: %s",
		models.TriggerOverdue:       "Überfällig: %s",
		models.TriggerEscalated:     "Eskaliert: %s",
		models.TriggerMentioned:     "Sie wurden erwähnt: %s",
		models.TriggerCommentAdded:  "Neuer Kommentar: %s",
		models.TriggerReturned:      "An Sie zurückgegeben: %s",
	},
	Leads: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "%s hat Ihnen diese Aufgabe zur Verfügung gestellt.",
		models.TriggerTaskAssigned:  "%s hat Ihnen diese Aufgabe zugewiesen.",
		models.TriggerDueSoon:       "Diese Aufgabe ist bald fällig.",
		models.TriggerOverdue:       "Diese Aufgabe ist überfällig.",
		models.TriggerEscalated:     "%s hat diese Aufgabe eskaliert.",
		models.TriggerMentioned:     "%s hat Sie bei dieser Aufgabe erwähnt.",
		models.TriggerCommentAdded:  "%s hat diese Aufgabe kommentiert.",
		models.TriggerReturned:      "%s hat Ihnen diese Aufgabe zurückgegeben.",
	},
	LeadsNoActor: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "Eine neue Aufgabe steht Ihnen zur Verfügung.",
		models.TriggerTaskAssigned:  "Diese Aufgabe wurde Ihnen zugewiesen.",
		models.TriggerDueSoon:       "Diese Aufgabe ist bald fällig.",
		models.TriggerOverdue:       "Diese Aufgabe ist überfällig.",
		models.TriggerEscalated:     "Diese Aufgabe wurde eskaliert.",
		models.TriggerMentioned:     "Sie wurden bei dieser Aufgabe erwähnt.",
		models.TriggerCommentAdded:  "Zu dieser Aufgabe gibt es einen neuen Kommentar.",
		models.TriggerReturned:      "Diese Aufgabe wurde an Sie zurückgegeben.",
	},
	Names: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "Neue Aufgabe verfügbar",
		models.TriggerTaskAssigned:  "Ihnen zugewiesen",
		models.TriggerDueSoon:       "Bald fällig",
		models.TriggerOverdue:       "Überfällig",
		models.TriggerEscalated:     "Eskaliert",
		models.TriggerMentioned:     "Erwähnt",
		models.TriggerCommentAdded:  "Neuer Kommentar",
		models.TriggerReturned:      "An Sie zurückgegeben",
	},
	Events: map[models.NotificationTrigger]string{
		models.TriggerTaskAvailable: "Für Sie verfügbar",
		models.TriggerTaskAssigned:  "Ihnen zugewiesen",
		models.TriggerDueSoon:       "Bald fällig",
		models.TriggerOverdue:       "Überfällig",
		models.TriggerEscalated:     "Eskaliert",
		models.TriggerMentioned:     "Sie wurden erwähnt",
		models.TriggerCommentAdded:  "Neuer Kommentar",
		models.TriggerReturned:      "An Sie zurückgegeben",
	},
	ByActor:     "von %s",
	Reference:   "Referenz",
	Workflow:    "Workflow",
	Due:         "Fällig",
	Priority:    "Priorität",
	Open:        "Aufgabe öffnen",
	Why:         "Sie erhalten diese E-Mail, weil E-Mails für „%s“ in Ihren Benachrichtigungseinstellungen eingeschaltet sind.",
	Unsubscribe: "Diese E-Mails abbestellen",
	Settings:    "Benachrichtigungseinstellungen",
	Automatic:   "Diese Nachricht wurde automatisch versendet; Antworten werden nicht gelesen.",
	DigestSubject: map[models.DigestPeriod]string{
		models.DigestOff:    "Ihre Aufgaben-Zusammenfassung",
		models.DigestHourly: "Ihre stündliche Aufgaben-Zusammenfassung",
		models.DigestDaily:  "Ihre tägliche Aufgaben-Zusammenfassung",
	},
	Updates:     [2]string{"%d Neuigkeit", "%d Neuigkeiten"},
	OnTasks:     [2]string{"zu %d Aufgabe", "zu %d Aufgaben"},
	DigestIntro: "Das ist bei Ihren Aufgaben passiert, das Neueste zuerst.",
	DigestWhy:   "Sie erhalten diese Zusammenfassung statt einzelner E-Mails, weil Sie sie in Ihren Benachrichtigungseinstellungen gewählt haben.",
	DigestStop:  "Benachrichtigungs-E-Mails abbestellen",
}

// TriggerName is a trigger's name in a language ("de…" German, else English) as a mail's
// footer says it, for the unsubscribe page to say the same.
func TriggerName(language string, t models.NotificationTrigger) string {
	if n := mailTextFor(language).Names[t]; n != "" {
		return n
	}
	return string(t)
}
