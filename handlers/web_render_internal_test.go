package handlers

import (
	"errors"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/views/i18n"
)

// TestPageErrorsFollowTheProblemTable: a page answers every code of the problem table with the
// status and Retry-After of the problem+json answer, and with a sentence of its own for the
// code in every language.
func TestPageErrorsFollowTheProblemTable(t *testing.T) {
	errorFor := func(code models.Code, status int) error {
		switch {
		case code == models.CodeCSRFRefused:
			return errCSRF
		case code == models.CodeInternal:
			return errors.New("disk on fire")
		case code == models.CodeMethodNotAllowed:
			return echo.NewHTTPError(http.StatusMethodNotAllowed)
		case status == http.StatusConflict:
			return models.Conflict(code)
		}
		return models.Invalid(code)
	}
	for code, kind := range problemKinds {
		t.Run(string(code), func(t *testing.T) {
			err := errorFor(code, kind.status)
			p, _ := problemOf(err)
			if p.Code != code {
				t.Fatalf("the test's error answers %s, want %s", p.Code, code)
			}
			for _, cat := range i18n.Supported {
				got := pageErrorOf(err, cat)
				if got.status != p.Status || got.status != kind.status || got.retryAfter != kind.retryAfter {
					t.Errorf("%s: page %d (Retry-After %q), problem %d (Retry-After %q)", cat.Lang, got.status, got.retryAfter, p.Status, kind.retryAfter)
				}
				if got.message == "" || got.message == cat.ProblemUnknown || got.heading == "" {
					t.Errorf("%s: no page words for %s: heading %q, message %q", cat.Lang, code, got.heading, got.message)
				}
			}
		})
	}
	t.Run("EchoErrors", func(t *testing.T) {
		for _, status := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge} {
			err := echo.NewHTTPError(status)
			p, _ := problemOf(err)
			for _, cat := range i18n.Supported {
				if got := pageErrorOf(err, cat); got.status != p.Status || got.status != status || got.message == cat.ProblemUnknown {
					t.Errorf("%s: echo %d: page %d %q, problem %d", cat.Lang, status, got.status, got.message, p.Status)
				}
			}
		}
	})
	t.Run("CSRFSaysWhy", func(t *testing.T) {
		for _, cat := range i18n.Supported {
			if got := pageErrorOf(errCSRF, cat); got.status != http.StatusForbidden || got.message != cat.CSRFText || got.heading != cat.ForbiddenTitle {
				t.Errorf("%s: CSRF page %d %q %q", cat.Lang, got.status, got.heading, got.message)
			}
		}
	})
}
