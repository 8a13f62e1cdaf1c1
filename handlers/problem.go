package handlers

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// problemContentType is the media type of every error answer (RFC 9457).
const problemContentType = "application/problem+json"

// problemTypePrefix makes a problem's type URI from its code. The URIs identify, they do not
// resolve (RFC 9457 3.1.1).
const problemTypePrefix = "urn:usertasks:problem:"

// problem is the body of every error answer. Errors lists the offending fields of validation
// and form errors. No body carries an id, a request id or anything the caller sent.
type problem struct {
	Type   string              `json:"type"`
	Title  string              `json:"title"`
	Status int                 `json:"status"`
	Code   models.Code         `json:"code"`
	Detail string              `json:"detail"`
	Errors []models.FieldError `json:"errors,omitempty"`
}

// problemKind is the fixed status, title and message of one code. Messages are our own. The
// pages answer with the same status; their words come from the catalogue, by code.
type problemKind struct {
	status        int
	title, detail string
	retryAfter    string // seconds, for 429 and 503
}

var problemKinds = map[models.Code]problemKind{
	models.CodeMalformedRequest:     {http.StatusBadRequest, "Malformed request", "The request could not be read.", ""},
	models.CodeUnauthenticated:      {http.StatusUnauthorized, "Unauthenticated", "A valid bearer token is required.", ""},
	models.CodeForbidden:            {http.StatusForbidden, "Forbidden", "You do not have permission for this request.", ""},
	models.CodeCSRFRefused:          {http.StatusForbidden, "Forbidden", "The form did not carry the page's CSRF token.", ""},
	models.CodeNotFound:             {http.StatusNotFound, "Not found", "The resource does not exist or is not visible to you.", ""},
	models.CodeMethodNotAllowed:     {http.StatusMethodNotAllowed, "Method not allowed", "The resource does not support this method.", ""},
	models.CodeRevisionConflict:     {http.StatusConflict, "Revision conflict", "The task changed since you read it; reload it and try again.", ""},
	models.CodeIdempotencyConflict:  {http.StatusConflict, "Idempotency conflict", "The operation id was already used for a different request.", ""},
	models.CodeTerminal:             {http.StatusConflict, "Task closed", "The task is closed.", ""},
	models.CodeTransitionInProgress: {http.StatusConflict, "Transition in progress", "The task is being completed, timed out or cancelled.", ""},
	models.CodeNotClaimable:         {http.StatusConflict, "Not claimable", "The task cannot be claimed in its current status.", ""},
	models.CodePayloadTooLarge:      {http.StatusUnprocessableEntity, "Payload too large", "A field is larger than its limit.", ""},
	models.CodeInvalidAction:        {http.StatusUnprocessableEntity, "Invalid action", "The action is not one of the task's actions.", ""},
	models.CodeReservedAction:       {http.StatusUnprocessableEntity, "Reserved action", "Timeout and Cancelled are reserved for the system.", ""},
	models.CodeFormRequired:         {http.StatusUnprocessableEntity, "Form required", "The task has no form; complete it with an action only.", ""},
	models.CodeFormInvalid:          {http.StatusUnprocessableEntity, "Form invalid", "The data does not satisfy the task's form.", ""},
	models.CodeFormUnavailable:      {http.StatusUnprocessableEntity, "Form unavailable", "The task's form cannot be used.", ""},
	models.CodeCancellationDisabled: {http.StatusUnprocessableEntity, "Cancellation disabled", "The task cannot be cancelled.", ""},
	models.CodeReasonRequired:       {http.StatusUnprocessableEntity, "Reason required", "A reason is required.", ""},
	models.CodeInvalidPriority:      {http.StatusUnprocessableEntity, "Invalid priority", "The priority must be between 0 and 100.", ""},
	models.CodeExcludedAssignee:     {http.StatusUnprocessableEntity, "Excluded assignee", "The user is excluded from the task.", ""},
	models.CodeCrossTenantAssignee:  {http.StatusUnprocessableEntity, "Cross-tenant assignee", "The assignee must belong to your tenant.", ""},
	models.CodeUnknownAssignee:      {http.StatusUnprocessableEntity, "Unknown assignee", "The participant directory does not know the assignee.", ""},
	models.CodeUnknownParticipant:   {http.StatusUnprocessableEntity, "Unknown participant", "The participant directory does not know this person.", ""},
	models.CodeNotAssigned:          {http.StatusConflict, "Not assigned", "Only an Assigned task can be delegated.", ""},
	models.CodeNotDelegated:         {http.StatusConflict, "Not delegated", "The task is not delegated; there is nobody to return it to.", ""},
	models.CodeValidationFailed:     {http.StatusUnprocessableEntity, "Validation failed", "The request has missing or invalid fields.", ""},
	models.CodeGuestAccessDenied:    {http.StatusForbidden, "Access denied", "The invitation link, code or guest session is not valid.", ""},
	models.CodeRateLimited:          {http.StatusTooManyRequests, "Too many requests", "Too many attempts; try again later.", "60"},
	models.CodeCapacityExceeded:     {http.StatusTooManyRequests, "Capacity exceeded", "The tenant has too many open tasks.", "60"},
	models.CodeDatabaseBusy:         {http.StatusServiceUnavailable, "Database busy", "The database is busy; try again shortly.", "1"},
	models.CodeDirectoryUnavailable: {http.StatusServiceUnavailable, "Directory unavailable", "The participant directory did not answer; try again shortly.", "5"},
	models.CodeInternal:             {http.StatusInternalServerError, "Internal error", "Something went wrong on our side.", ""},
	models.CodeUnsupportedMediaType: {http.StatusUnsupportedMediaType, "Unsupported media type", "The file is none of the accepted types.", ""},

	// Guest invitations (issuance and revocation).
	models.CodeInvitationsUnavailable: {http.StatusConflict, "Invitations unavailable", "No invitation dispatcher is configured.", ""},
	models.CodeInvitationNotRevocable: {http.StatusConflict, "Invitation not revocable", "The invitation was consumed, expired or revoked already.", ""},
}

// bodyTooLarge is the 413 of a request body over models.MaxRequestBodyBytes (a field over its
// own limit is the 422 payload-too-large of problemKinds).
var bodyTooLarge = problemKind{http.StatusRequestEntityTooLarge, "Payload too large", "The request body is larger than 1 MiB.", ""}

// fileTooLarge is the 413 of an attachment over USERTASKS_ATTACHMENT_MAX_SIZE (SPEC 10.2).
var fileTooLarge = problemKind{http.StatusRequestEntityTooLarge, "Payload too large", "The file is larger than the attachment limit.", ""}

// isFileTooLarge tells the attachment limit's refusal (models.AttachmentTooLarge, on field
// file) from a field over its own limit (422).
func isFileTooLarge(err error) bool {
	var ve *models.ValidationError
	return errors.As(err, &ve) && len(ve.Fields) == 1 && ve.Fields[0].Field == "file"
}

// errorHandler is the one echo HTTPErrorHandler: it turns every error — the domain's, the
// handlers' and echo's own (unknown route, wrong method, body limit) — into problem+json.
// Internal errors are logged once, with the request id, and answered with a generic message.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		p, kind := problemOf(err)
		if p.Status == http.StatusInternalServerError {
			logInternal(log, c, err)
		}
		h := c.Response().Header()
		if kind.retryAfter != "" {
			h.Set("Retry-After", kind.retryAfter)
		}
		if p.Status == http.StatusUnauthorized {
			h.Set(echo.HeaderWWWAuthenticate, "Bearer")
		}
		if c.Request().Method == http.MethodHead {
			_ = c.NoContent(p.Status)
			return
		}
		body, _ := json.Marshal(p) // plain strings and ints: cannot fail
		_ = c.Blob(p.Status, problemContentType, body)
	}
}

// logInternal logs an internal error once, with the request id; the answer says nothing of it.
func logInternal(log *slog.Logger, c echo.Context, err error) {
	req := c.Request()
	log.ErrorContext(req.Context(), "internal error",
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID),
		"method", req.Method, "route", c.Path(), "error", err.Error())
}

// problemOf chooses the answer to err, for the JSON API and the pages alike.
func problemOf(err error) (problem, problemKind) {
	var he *echo.HTTPError
	switch {
	case errors.Is(err, errCSRF):
		kind := problemKinds[models.CodeCSRFRefused]
		return newProblem(models.CodeCSRFRefused, kind), kind
	case errors.As(err, &he):
		return echoProblem(he)
	}
	code := models.ErrorCode(err)
	if code == models.CodePayloadTooLarge && isFileTooLarge(err) {
		p := newProblem(code, fileTooLarge)
		p.Errors = []models.FieldError{{Field: "file", Message: "the file is larger than the attachment limit"}}
		return p, fileTooLarge
	}
	kind, ok := problemKinds[code]
	if !ok { // internal, corrupt-store, lease-lost: nothing the caller can act on
		code, kind = models.CodeInternal, problemKinds[models.CodeInternal]
	}
	p := newProblem(code, kind)
	var ve *models.ValidationError
	if errors.As(err, &ve) && code != models.CodeInternal {
		p.Errors = ve.Fields
	}
	return p, kind
}

// echoProblem answers echo's own errors: routing (404, 405), the body limit (413) and, should
// any appear, other statuses echo produces.
func echoProblem(he *echo.HTTPError) (problem, problemKind) {
	var code models.Code
	switch he.Code {
	case http.StatusRequestEntityTooLarge:
		return newProblem(models.CodePayloadTooLarge, bodyTooLarge), bodyTooLarge
	case http.StatusBadRequest:
		code = models.CodeMalformedRequest
	case http.StatusUnauthorized:
		code = models.CodeUnauthenticated
	case http.StatusForbidden:
		code = models.CodeForbidden
	case http.StatusNotFound:
		code = models.CodeNotFound
	case http.StatusMethodNotAllowed:
		code = models.CodeMethodNotAllowed
	default:
		if he.Code >= 500 || http.StatusText(he.Code) == "" {
			code = models.CodeInternal
			break
		}
		text := http.StatusText(he.Code)
		kind := problemKind{status: he.Code, title: text, detail: "The request was refused."}
		return newProblem(models.Code(strings.ToLower(strings.ReplaceAll(text, " ", "-"))), kind), kind
	}
	return newProblem(code, problemKinds[code]), problemKinds[code]
}

func newProblem(code models.Code, k problemKind) problem {
	if k.status == 0 {
		k = problemKinds[models.CodeInternal]
	}
	return problem{Type: problemTypePrefix + string(code), Title: k.title, Status: k.status, Code: code, Detail: k.detail}
}
