package models

// FormFailure is why a form reference did not resolve, as a class a manager can act on. The
// finding's message says the class; the provider's own error (which may name hosts, paths or
// credentials) goes to the log only.
type FormFailure string

const (
	// FormProviderUnknown: no form provider of the reference's name is configured.
	FormProviderUnknown FormFailure = "provider-unknown"
	// FormNotFound: the provider does not know the form's key or version.
	FormNotFound FormFailure = "not-found"
	// FormInvalid: the provider answered a form that is not a valid form, or no concrete version.
	FormInvalid FormFailure = "invalid"
	// FormUnavailable: the provider failed to answer (unreachable, timed out, a read error).
	FormUnavailable FormFailure = "unavailable"
)

// formFailureMessages are the safe messages of the form findings, one per class.
var formFailureMessages = map[FormFailure]string{
	FormProviderUnknown: "The task's form provider is not configured.",
	FormNotFound:        "The form provider does not know the task's form or its version.",
	FormInvalid:         "The form provider answered a form that is not valid.",
	FormUnavailable:     "The form provider did not answer.",
}

// Finding is the blocking health finding of a failed form resolution of this class.
func (f FormFailure) Finding() Health {
	code := HealthFormResolutionFailed
	if f == FormProviderUnknown {
		code = HealthFormProviderMissing
	}
	return Health{Severity: SeverityBlocking, Code: code, Message: formFailureMessages[f]}
}

// FormFailureOf is the class of a form finding, read from its message; "" when h is no form
// finding or its message predates the classes.
func FormFailureOf(h Health) FormFailure {
	if h.Code != HealthFormProviderMissing && h.Code != HealthFormResolutionFailed {
		return ""
	}
	for f, msg := range formFailureMessages {
		if msg == h.Message {
			return f
		}
	}
	return ""
}
