package models

import (
	"errors"
	"fmt"
)

// Code is the stable machine-readable error code of SPEC 5.1.
type Code string

const (
	CodeMalformedRequest     Code = "malformed-request"
	CodeUnauthenticated      Code = "unauthenticated"
	CodeForbidden            Code = "forbidden"
	CodeNotFound             Code = "not-found"
	CodeRevisionConflict     Code = "revision-conflict"
	CodeIdempotencyConflict  Code = "idempotency-conflict"
	CodeTerminal             Code = "terminal"
	CodeTransitionInProgress Code = "transition-in-progress"
	CodeNotClaimable         Code = "not-claimable"
	CodePayloadTooLarge      Code = "payload-too-large"
	// CodeUnsupportedMediaType refuses an attachment whose bytes are none of the accepted
	// types (SPEC 10.2), whatever the client said.
	CodeUnsupportedMediaType Code = "unsupported-media-type"
	CodeInvalidAction        Code = "invalid-action"
	CodeReservedAction       Code = "reserved-action"
	CodeFormRequired         Code = "form-required"
	CodeFormInvalid          Code = "form-invalid"
	CodeFormUnavailable      Code = "form-unavailable"
	CodeCancellationDisabled Code = "cancellation-disabled"
	CodeReasonRequired       Code = "reason-required"
	CodeInvalidPriority      Code = "invalid-priority"
	CodeExcludedAssignee     Code = "excluded-assignee"
	CodeCrossTenantAssignee  Code = "cross-tenant-assignee"
	CodeUnknownAssignee      Code = "unknown-assignee" // the configured directory does not know the assignee
	CodeValidationFailed     Code = "validation-failed"
	// Delegation (SPEC 10.5): the configured directory does not know the delegate or substitute;
	// a delegation of a task nobody holds; a return of a task that was not delegated.
	CodeUnknownParticipant   Code = "unknown-participant"
	CodeNotAssigned          Code = "not-assigned"
	CodeNotDelegated         Code = "not-delegated"
	CodeRateLimited          Code = "rate-limited"
	CodeCapacityExceeded     Code = "capacity-exceeded"
	CodeDatabaseBusy         Code = "database-busy"
	CodeDirectoryUnavailable Code = "directory-unavailable" // the participant directory did not answer
	CodeCorruptStore         Code = "corrupt-store"
	CodeLeaseLost            Code = "lease-lost"
	CodeGuestAccessDenied    Code = "guest-access-denied" // every guest verification or session failure, alike
	// Guest invitations (SPEC 6): no dispatcher is configured to send a new invitation; the
	// invitation is consumed, expired or revoked already and cannot be revoked.
	CodeInvitationsUnavailable Code = "invitations-unavailable"
	CodeInvitationNotRevocable Code = "invitation-not-revocable"

	// Codes of answers no domain error produces, listed here so every answer's code (and the
	// page sentence for it) comes from this one set.
	CodeMethodNotAllowed Code = "method-not-allowed" // a route that exists, with another method
	CodeCSRFRefused      Code = "csrf-refused"       // a page's form post without the page's CSRF token
	CodeInternal         Code = "internal-error"     // anything the caller cannot act on
)

// Sentinel errors; typed errors below unwrap to them so callers can use errors.Is.
var (
	ErrNotFound     = errors.New("not found")
	ErrForbidden    = errors.New("forbidden")
	ErrConflict     = errors.New("conflict")
	ErrInvalid      = errors.New("invalid")
	ErrBusy         = errors.New("database busy")
	ErrCorrupt      = errors.New("corrupt store")
	ErrCapacity     = errors.New("capacity exceeded")
	ErrLeaseLost    = errors.New("lease lost")
	ErrUnauthorized = errors.New("unauthenticated")
	// ErrDirectoryUnavailable: the participant directory failed or timed out, so a check that
	// needs it cannot be made; nothing was written.
	ErrDirectoryUnavailable = errors.New("participant directory unavailable")
	// ErrGuestDenied is the one answer to every failed guest verification or dead guest
	// session: it never tells which check failed (SPEC 5.3).
	ErrGuestDenied = errors.New("guest access denied")
	// ErrGuestLinkUsed refuses the verification of an invitation used already (verified or
	// consumed) to a caller who presented its right proof: only it may learn why. It is an
	// ErrGuestDenied, so every answer that does not tell it apart stays the generic one.
	ErrGuestLinkUsed = fmt.Errorf("%w: the invitation was used already", ErrGuestDenied)
)

// ConflictError is a 409: the request was well formed but the task's state refuses it.
type ConflictError struct{ Code Code }

func (e *ConflictError) Error() string { return "conflict: " + string(e.Code) }
func (e *ConflictError) Unwrap() error { return ErrConflict }

// Conflict builds a ConflictError.
func Conflict(code Code) error { return &ConflictError{Code: code} }

// FieldError names one offending field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ValidationError is a 422 with a stable code and, where it helps, the offending fields.
type ValidationError struct {
	Code   Code
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	if len(e.Fields) == 0 {
		return "invalid: " + string(e.Code)
	}
	return fmt.Sprintf("invalid: %s (%s: %s)", e.Code, e.Fields[0].Field, e.Fields[0].Message)
}
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Invalid builds a ValidationError.
func Invalid(code Code, fields ...FieldError) error {
	return &ValidationError{Code: code, Fields: fields}
}

// InvalidField is shorthand for a validation-failed error on one field.
func InvalidField(field, message string) error {
	return Invalid(CodeValidationFailed, FieldError{Field: field, Message: message})
}

// CapacityError refuses a creation that would exceed a limit.
type CapacityError struct{ Limit int }

func (e *CapacityError) Error() string { return fmt.Sprintf("capacity exceeded: limit %d", e.Limit) }
func (e *CapacityError) Unwrap() error { return ErrCapacity }

// CorruptError names a task whose stored data does not decode or breaks an invariant.
// It is never repaired silently.
type CorruptError struct {
	TaskID string
	Reason string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("corrupt store: task %s: %s", e.TaskID, e.Reason)
}
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// ErrorCode returns the stable code of err, or "" for an internal error.
func ErrorCode(err error) Code {
	var ce *ConflictError
	var ve *ValidationError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ce):
		return ce.Code
	case errors.As(err, &ve):
		return ve.Code
	case errors.Is(err, ErrGuestDenied):
		return CodeGuestAccessDenied
	case errors.Is(err, ErrNotFound):
		return CodeNotFound
	case errors.Is(err, ErrForbidden):
		return CodeForbidden
	case errors.Is(err, ErrBusy):
		return CodeDatabaseBusy
	case errors.Is(err, ErrDirectoryUnavailable):
		return CodeDirectoryUnavailable
	case errors.Is(err, ErrCapacity):
		return CodeCapacityExceeded
	case errors.Is(err, ErrCorrupt):
		return CodeCorruptStore
	case errors.Is(err, ErrLeaseLost):
		return CodeLeaseLost
	case errors.Is(err, ErrUnauthorized):
		return CodeUnauthenticated
	}
	return ""
}
