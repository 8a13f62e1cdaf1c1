// Package formsource provides form sources: providers that resolve a form reference to a
// concrete, pinned form (SPEC 3.7), with the rules every form reference follows.
package formsource

import (
	"context"

	"usertasks/models"
)

// Provider resolves a form reference to a concrete, pinned form (SPEC 3.7). Hosts add their
// own providers; the built-in one reads versioned schema files.
//
// Resolve must answer with a concrete Version (never empty or `latest`) and the schema of that
// version. An unknown key or version is an error wrapping models.ErrNotFound. The projector fills
// in Provider and Requested itself.
type Provider interface {
	Resolve(ctx context.Context, tenant string, ref models.FormRef) (models.PinnedForm, error)
}
