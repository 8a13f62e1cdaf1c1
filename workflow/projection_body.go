package workflow

import (
	"context"
	"encoding/json"
	"errors"

	"usertasks/models"
)

// BodyProjector projects projection bodies given as JSON, the way the reconciliation reads them
// from the runtime's bookmark listing (SPEC 5.2); it is the reconciler's BookmarkProjector.
type BodyProjector struct {
	projector *Projector
}

// Bodies returns p for JSON bodies.
func (p *Projector) Bodies() BodyProjector { return BodyProjector{projector: p} }

// Project decodes body and projects it for tenant, answering whether it created the task.
// Members the protocol does not define are ignored here (the runtime's listing is not a client
// request to hold to the letter); a body that does not decode is a validation error, as is one
// the projection refuses.
func (b BodyProjector) Project(ctx context.Context, tenant string, body json.RawMessage) (bool, error) {
	var req ProjectionRequest
	if err := json.Unmarshal(body, &req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return false, models.InvalidField(te.Field, "has the wrong type")
		}
		return false, models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "body", Message: "is not a JSON object"})
	}
	_, created, err := b.projector.Project(ctx, tenant, req)
	return created, err
}
