package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"usertasks/models"
)

// TestErrorHandler maps the errors no HTTP route can produce yet (429) and checks the table.
func TestErrorHandler(t *testing.T) {
	e := echo.New()
	handle := errorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, c := range []struct {
		err        error
		status     int
		code       models.Code
		retryAfter string
	}{
		{&models.CapacityError{Limit: 10}, http.StatusTooManyRequests, models.CodeCapacityExceeded, "60"},
		{models.Invalid(models.CodeRateLimited), http.StatusTooManyRequests, models.CodeRateLimited, "60"},
		{fmt.Errorf("write: %w", models.ErrBusy), http.StatusServiceUnavailable, models.CodeDatabaseBusy, "1"},
		{models.Invalid(models.CodeCrossTenantAssignee, models.FieldError{Field: "assignee", Message: "x"}), http.StatusUnprocessableEntity, models.CodeCrossTenantAssignee, ""},
		{models.Invalid(models.CodeFormUnavailable), http.StatusUnprocessableEntity, models.CodeFormUnavailable, ""},
		{&models.CorruptError{TaskID: "t", Reason: "x"}, http.StatusInternalServerError, models.CodeInternal, ""},
		{models.ErrLeaseLost, http.StatusInternalServerError, models.CodeInternal, ""},
		{errors.New("boom"), http.StatusInternalServerError, models.CodeInternal, ""},
		{echo.NewHTTPError(http.StatusUnsupportedMediaType), http.StatusUnsupportedMediaType, "unsupported-media-type", ""},
		{echo.NewHTTPError(http.StatusBadGateway), http.StatusInternalServerError, models.CodeInternal, ""},
	} {
		rec := httptest.NewRecorder()
		handle(c.err, e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec))
		var p problem
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatalf("%v: body %q: %v", c.err, rec.Body, err)
		}
		if rec.Code != c.status || p.Status != c.status || p.Code != c.code {
			t.Errorf("%v: got %d %d %s, want %d %s", c.err, rec.Code, p.Status, p.Code, c.status, c.code)
		}
		if got := rec.Header().Get("Retry-After"); got != c.retryAfter {
			t.Errorf("%v: Retry-After = %q, want %q", c.err, got, c.retryAfter)
		}
		if got := rec.Header().Get("Content-Type"); got != problemContentType {
			t.Errorf("%v: Content-Type = %q", c.err, got)
		}
	}
	t.Run("Head", func(t *testing.T) {
		rec := httptest.NewRecorder()
		handle(models.ErrNotFound, e.NewContext(httptest.NewRequest(http.MethodHead, "/", nil), rec))
		if rec.Code != http.StatusNotFound || rec.Body.Len() != 0 {
			t.Errorf("HEAD: %d with %d bytes, want 404 without a body", rec.Code, rec.Body.Len())
		}
	})
	t.Run("EveryCodeHasAKind", func(t *testing.T) {
		for _, code := range []models.Code{models.CodeMalformedRequest, models.CodeUnauthenticated, models.CodeForbidden, models.CodeNotFound,
			models.CodeRevisionConflict, models.CodeIdempotencyConflict, models.CodeTerminal, models.CodeTransitionInProgress, models.CodeNotClaimable,
			models.CodePayloadTooLarge, models.CodeInvalidAction, models.CodeReservedAction, models.CodeFormRequired, models.CodeFormInvalid,
			models.CodeFormUnavailable, models.CodeCancellationDisabled, models.CodeReasonRequired, models.CodeInvalidPriority,
			models.CodeExcludedAssignee, models.CodeCrossTenantAssignee, models.CodeValidationFailed, models.CodeRateLimited,
			models.CodeCapacityExceeded, models.CodeDatabaseBusy} {
			if _, ok := problemKinds[code]; !ok {
				t.Errorf("no problem kind for %s", code)
			}
		}
	})
}
