package storekit

import "usertasks/models"

// CheckWorkerHealth refuses a finding a worker may not record (SetHealth): workers record
// advisory findings with a code, or the zero Health to clear one; blocking findings are not
// theirs.
func CheckWorkerHealth(h models.Health) error {
	switch {
	case h.Severity == models.SeverityNone && (h.Code != "" || h.Message != ""):
		return models.InvalidField("health.severity", "is required with a code or message")
	case h.Severity == models.SeverityBlocking:
		return models.InvalidField("health.severity", "workers set advisory findings only")
	case h.Severity != models.SeverityNone && h.Severity != models.SeverityAdvisory:
		return models.InvalidField("health.severity", "must be advisory")
	case h.Severity == models.SeverityAdvisory && (h.Code == "" || len(h.Code) > models.MaxActionKeyLength):
		return models.InvalidField("health.code", "is required and at most 64 bytes")
	case len(h.Message) > models.MaxHealthMessageLength:
		return models.InvalidField("health.message", "is too long")
	}
	return nil
}
