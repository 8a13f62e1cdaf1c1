package i18n

// SubmitText is what a task page says about a completion that was refused.
type SubmitText struct {
	// CompletedBy: the task was completed before the submission arrived; %s is who completed it.
	CompletedBy string
}
