// Package formsource provides form sources: providers that resolve a form reference to a
// concrete, pinned form (SPEC 3.7), with the rules every form reference follows.
package formsource

import (
	"context"
	"errors"

	"usertasks/models"
)

// FilesProvider is the name references use for the built-in provider of versioned schema
// files (NewFileProvider); `web serve` configures it with USERTASKS_FORMS_DIR.
const FilesProvider = "files"

// ErrInvalidForm marks a provider's answer that is no valid form (unparsable, too large):
// the resolution failed because of the form, not because the provider could not answer.
var ErrInvalidForm = errors.New("not a valid form")

// Provider resolves a form reference to a concrete, pinned form (SPEC 3.7). Hosts add their
// own providers; the built-in one reads versioned schema files.
//
// Resolve must answer with a concrete Version (never empty or `latest`) and the schema of that
// version. An unknown key or version is an error wrapping models.ErrNotFound, a stored form that
// is not valid one wrapping ErrInvalidForm. The projector fills in Provider and Requested itself.
type Provider interface {
	Resolve(ctx context.Context, tenant string, ref models.FormRef) (models.PinnedForm, error)
}
