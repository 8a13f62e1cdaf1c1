package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"usertasks/forms"
	"usertasks/models"
)

// CompleteInput is a completion request.
type CompleteInput struct {
	Common
	ActionKey string
	Data      json.RawMessage
}

// Complete handles complete: the assignee (or guest assignee) submits the form with an action.
// The transition decides the relationship (404 before 422); the data is then validated against
// the pinned form and normalized.
func (s *Service) Complete(ctx context.Context, a models.Actor, id string, in CompleteInput) (res Result, err error) {
	ctx, done := s.observe(ctx, models.OpComplete)
	defer done(&res, &err)
	if err := requireComplete(a); err != nil {
		return Result{}, err
	}
	// The completion is validated against the pinned form and keeps the task data's masked
	// values (KeepMasked); the instructions are not read.
	reads := models.ReadsAllProtected &^ models.ReadsInstructions
	return s.run(ctx, a, id, in.OperationID, reads, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		return models.CompleteWith(t, in.command(models.OpComplete, a, prior), in.ActionKey, now, func() (json.RawMessage, error) {
			if err := boundCompletion(in.Data); err != nil {
				return nil, err
			}
			form, err := pinnedForm(t)
			if err != nil {
				return nil, err
			}
			return normalizeCompletion(t, form, in.Data)
		})
	})
}

// FormCompleteInput is a completion posted from a page: the form's values as posted, which the
// pinned form turns into typed data, and the pressed button's action.
type FormCompleteInput struct {
	Common
	ActionKey string
	Values    url.Values
}

// FormCompletion answers a completion posted from a page. After a refusal of the form (a
// validation error or a conflict), Page is the task as the command loaded it, as the caller may
// see it, with the form parsed for the command: the page shows it again from this, without
// loading the task or parsing its form a second time. Page is nil after success and after any
// other error.
type FormCompletion struct {
	Result
	Page *Detail
}

// CompleteForm handles a completion posted from the task page, with one load of the task and
// one parse of its form. The caller must first be able to read the task, as the page it
// posted from (Detail's policy and statuses); then Complete's rules apply.
func (s *Service) CompleteForm(ctx context.Context, a models.Actor, id string, in FormCompleteInput) (out FormCompletion, err error) {
	ctx, done := s.observe(ctx, models.OpComplete)
	defer done(&out.Result, &err)
	if a.Guest == nil {
		if err := requirePermission(a, models.PermView); err != nil {
			return FormCompletion{}, err
		}
	}
	if err := requireComplete(a); err != nil {
		return FormCompletion{}, err
	}
	var (
		seen   models.Task
		view   TaskView
		form   *forms.Form
		parsed bool // the command got as far as the form: a refusal can show the page
	)
	// A refusal shows the page again from the task as loaded here: all of it.
	res, err := s.run(ctx, a, id, in.OperationID, models.ReadsAllProtected, func(now time.Time, t models.Task, prior *models.Operation) (models.Change, error) {
		// Inside the transaction the past-actor relation is witnessed by the caller's own
		// stored operation: without one, only the assignee may complete, who reads anyway.
		v, ok, err := visibleView(ctx, t, a, func(context.Context) (bool, error) { return prior.RanBy(a), nil })
		if err != nil {
			return models.Change{}, err
		}
		if !ok {
			return models.Change{}, models.ErrNotFound
		}
		seen, view, form, parsed = t, v, nil, false
		return models.CompleteWith(t, in.command(models.OpComplete, a, prior), in.ActionKey, now, func() (json.RawMessage, error) {
			f, err := pinnedForm(t)
			form, parsed = f, true
			if err != nil {
				return nil, err
			}
			var data json.RawMessage
			if f != nil && v.Disclosure.CanViewProtected { // the page shows the form to them only
				data = f.ParseFormValues(in.Values)
			}
			if err := boundCompletion(data); err != nil {
				return nil, err
			}
			return normalizeCompletion(t, f, data)
		})
	})
	out = FormCompletion{Result: res}
	var ve *models.ValidationError
	var ce *models.ConflictError
	if parsed && (errors.As(err, &ve) || errors.As(err, &ce)) {
		d := detailOf(seen, view, func(models.Task) (*forms.Form, error) { return form, nil })
		out.Page = &d
	}
	return out, err
}

// requireComplete is complete's 403 step; a guest's grant is its session, checked with the task.
func requireComplete(a models.Actor) error {
	if a.Guest != nil {
		return nil
	}
	return requirePermission(a, models.PermComplete)
}

// boundCompletion refuses completion data over the size of protected payloads.
func boundCompletion(data json.RawMessage) error {
	if len(data) > models.MaxProtectedPayloadBytes {
		return models.Invalid(models.CodePayloadTooLarge, models.FieldError{Field: "data", Message: "completion data is too large"})
	}
	return nil
}

// normalizeCompletion checks data against the task's pinned form (parsed by the caller) and
// returns it normalized. With no form the data passes through, and the transition refuses any
// non-empty data.
func normalizeCompletion(t models.Task, form *forms.Form, data json.RawMessage) (json.RawMessage, error) {
	if form == nil {
		return data, nil
	}
	if len(data) == 0 || string(data) == "null" {
		data = json.RawMessage(`{}`)
	}
	// Masked values are never shown, so a masked field left empty keeps the task's value.
	return form.Validate(form.KeepMasked(t.Protected.Data, data))
}
