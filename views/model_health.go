package views

import (
	"time"

	"usertasks/models"
)

// AttentionNote is one reason a row is on the Needs attention list, besides its health finding
// (which its badge shows): overdue, or stale or unassigned since a time.
type AttentionNote struct {
	Reason models.AttentionReason
	Since  time.Time // stale: since the transition began; unassigned: since the task was created
}

// HealthFilters are the inbox's health filters as submitted (managers only): any of the codes,
// and the severity.
type HealthFilters struct {
	Codes    []string
	Severity string
}
