package tasks

import (
	"encoding/json"

	"usertasks/forms"
	"usertasks/models"
)

// parseForm compiles a pinned form's schema; every parse of the service goes through it, so a
// test can count them (one per request).
var parseForm = forms.Parse

// pinnedForm parses t's pinned form: nil when the task has no resolved form, form-unavailable
// when its schema does not compile.
func pinnedForm(t models.Task) (*forms.Form, error) {
	if !t.Protected.Form.Resolved() {
		return nil, nil
	}
	form, err := parseForm(t.Protected.Form.Schema)
	if err != nil {
		return nil, models.Invalid(models.CodeFormUnavailable, models.FieldError{Field: "form", Message: "the task's form cannot be used"})
	}
	return form, nil
}

// protectedView is what a caller who may read t's protected content is shown of it: the
// instructions, the pinned form (form, parsed by the caller; nil when t has none or it cannot
// be used) with its fields' values, and the task data. Masked members are in none of them,
// whether prefilled from the task data or submitted with the completion: they leave the server
// only through Reveal, one at a time and audited (SPEC 3.7). The completion data is shown only
// through the form's fields.
//
// A form the service cannot use shows as none (health tells the manager why); as nobody can
// tell which of its members are masked, the task data is then withheld as well.
func protectedView(t models.Task, form *forms.Form) (models.Protected, *FormView) {
	p := models.Protected{Instructions: t.Protected.Instructions, Form: t.Protected.Form}
	if t.Protected.Form == nil {
		p.Data = t.Protected.Data
		return p, nil
	}
	p.Data = json.RawMessage(`{}`)
	if form == nil {
		return p, nil
	}
	if data, err := form.WithoutMasked(t.Protected.Data); err == nil {
		p.Data = data
	}
	pinned := t.Protected.Form
	fv := &FormView{Provider: pinned.Provider, Key: pinned.Key, Version: pinned.Version, Schema: pinned.Schema}
	masked := form.Masked(shownValues(t))
	for _, f := range form.Fields() {
		fv.Fields = append(fv.Fields, FieldView{Field: f, CanReveal: f.Masked, Value: masked[f.Key]})
	}
	return p, fv
}

// shownValues are the values the form's fields show: the completion data once submitted,
// otherwise the task data as prefill.
func shownValues(t models.Task) json.RawMessage {
	values := t.Protected.CompletionData
	if len(values) == 0 {
		values = t.Protected.Data
	}
	if len(values) == 0 {
		values = json.RawMessage(`{}`)
	}
	return values
}
