package forms

import (
	"encoding/json"
	"fmt"

	"usertasks/models"
)

// revealField names the reveal request's key in Reveal's field errors.
const revealField = "fieldKey"

// Masked returns the declared values of data for display, with every masked field present and
// set to nil whether or not it has a value. Numbers are json.Number. Undeclared keys are left
// out; data that is not a JSON object yields an empty map.
func (f *Form) Masked(data json.RawMessage) map[string]any {
	out := map[string]any{}
	obj, err := decodeData(data)
	if err != nil {
		obj = nil
	}
	for key, p := range f.props {
		if p.masked {
			out[key] = nil
			continue
		}
		if v, ok := obj[key]; ok {
			out[key] = v
		}
	}
	return out
}

// Reveal returns the value of one masked field of data (nil when it has none; numbers are
// json.Number). A key the form does not declare, or declares unmasked, is a validation-failed
// error on "fieldKey". Data that is not a JSON object is an internal error.
func (f *Form) Reveal(data json.RawMessage, key string) (any, error) {
	p := f.props[key]
	if p == nil {
		return nil, models.InvalidField(revealField, "is not a field of this form")
	}
	if !p.masked {
		return nil, models.InvalidField(revealField, "is not a masked field")
	}
	obj, err := decodeData(data)
	if err != nil {
		return nil, fmt.Errorf("forms: reveal: stored data is not a JSON object: %w", err)
	}
	return obj[key], nil
}

// WithoutMasked returns data, a JSON object, without its masked members: what may be shown of
// the task data outside Reveal. Other members, declared or not, are kept as they are (numbers
// exactly); keys come out sorted. Empty or null data yields {}; data that is not a JSON object is
// an error, so the caller shows nothing rather than something unchecked.
func (f *Form) WithoutMasked(data json.RawMessage) (json.RawMessage, error) {
	obj, err := decodeData(data)
	if err != nil {
		return nil, fmt.Errorf("forms: task data is not a JSON object: %w", err)
	}
	for key, p := range f.props {
		if p.masked {
			delete(obj, key)
		}
	}
	return encodeJSON(obj)
}
