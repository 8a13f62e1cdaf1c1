package storekit

import (
	"errors"
	"testing"

	"usertasks/models"
)

// TestVerificationResult: a missing row, a lost race and a recorded refusal are all
// models.ErrGuestDenied; any other failure stays what it is.
func TestVerificationResult(t *testing.T) {
	conflict := models.Conflict(models.CodeRevisionConflict)
	other := errors.New("disk full")
	for _, tc := range []struct {
		name   string
		err    error
		denied bool
		want   error
	}{
		{"NotFound", models.ErrNotFound, false, models.ErrGuestDenied},
		{"RevisionConflict", conflict, false, models.ErrGuestDenied},
		{"Denied", nil, true, models.ErrGuestDenied},
		{"OtherFailure", other, false, other},
		{"OK", nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := VerificationResult(tc.err, tc.denied); !errors.Is(got, tc.want) || (tc.want == nil && got != nil) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
