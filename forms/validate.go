package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"usertasks/models"
)

// dataField names the completion data as a whole in field errors (the `data` member of the
// complete request).
const dataField = "data"

// maxSafeInteger is the largest integer every JSON consumer reads exactly (RFC 7493, I-JSON).
const maxSafeInteger = 1<<53 - 1

// Validate checks completion data against the form and returns it normalized:
//   - only declared keys, sorted; unknown keys are a field error unless the schema says
//     `additionalProperties: true`, in which case they are dropped;
//   - strings trimmed; an empty string counts as absent (dropped when optional, "is required"
//     when required);
//   - numbers re-encoded canonically (integers without a fraction or exponent); integers must
//     be within ±(2^53−1) and numbers within float64 range;
//   - booleans kept.
//
// Empty or null data counts as an empty object. Data or its normalized form over
// models.MaxProtectedPayloadBytes is payload-too-large; anything else wrong is form-invalid with
// one models.FieldError per offending top-level key. Messages never contain submitted values.
func (f *Form) Validate(data json.RawMessage) (json.RawMessage, error) {
	if len(data) > models.MaxProtectedPayloadBytes {
		return nil, tooLarge()
	}
	obj, err := decodeData(data)
	if err != nil {
		return nil, models.Invalid(models.CodeFormInvalid, models.FieldError{
			Field: dataField, Message: "must be a JSON object",
		})
	}

	errs := fieldErrors{}
	for key, v := range obj {
		p := f.props[key]
		if p == nil {
			continue // refused (or dropped) below
		}
		switch v := v.(type) {
		case string:
			if t := strings.TrimSpace(v); t == "" {
				delete(obj, key)
			} else {
				obj[key] = t
			}
		case json.Number:
			// Canonical before validation: the validator then compares the number we store,
			// and never sees an exponent large enough to make exact arithmetic expensive.
			n, ok := canonicalNumber(v, p.jsonType == "integer")
			if !ok {
				errs.add(key, "is out of range")
				delete(obj, key)
				continue
			}
			obj[key] = n
		}
	}

	if err := f.schema.Validate(map[string]any(obj)); err != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			return nil, fmt.Errorf("forms: validate: %w", err)
		}
		f.collect(verr, errs)
	}
	if len(errs) > 0 {
		return nil, models.Invalid(models.CodeFormInvalid, f.sorted(errs)...)
	}

	out := make(map[string]any, len(obj))
	for key, v := range obj {
		if f.props[key] != nil {
			out[key] = v
		}
	}
	normalized, err := encodeJSON(out)
	if err != nil {
		return nil, fmt.Errorf("forms: encode normalized data: %w", err)
	}
	if len(normalized) > models.MaxProtectedPayloadBytes {
		return nil, tooLarge()
	}
	return normalized, nil
}

// KeepMasked returns data with every masked field it leaves blank (absent, null or empty text)
// set to its value in stored, the task's data. Nobody sees a masked value without revealing
// it, so leaving the field empty keeps what the workflow put there; typing replaces it. Data or
// stored data that is not a JSON object is left for Validate to refuse.
func (f *Form) KeepMasked(stored, data json.RawMessage) json.RawMessage {
	obj, err := decodeData(data)
	if err != nil {
		return data
	}
	prev, err := decodeData(stored)
	if err != nil {
		return data
	}
	kept := false
	for key, p := range f.props {
		if v, ok := prev[key]; ok && p.masked && blank(obj[key]) && !blank(v) {
			obj[key], kept = v, true
		}
	}
	if !kept {
		return data
	}
	out, err := encodeJSON(obj)
	if err != nil {
		return data
	}
	return out
}

// blank reports a value that counts as not given: null or text that is only spaces.
func blank(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	}
	return false
}

func tooLarge() error {
	return models.Invalid(models.CodePayloadTooLarge, models.FieldError{
		Field: dataField, Message: "is larger than 256 KiB",
	})
}

// decodeData decodes completion data; empty and null count as an empty object.
func decodeData(data json.RawMessage) (map[string]any, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return map[string]any{}, nil
	}
	v, err := decodeJSON(trimmed)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// encodeJSON marshals v compactly with sorted keys and without HTML escaping.
func encodeJSON(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// canonicalNumber re-encodes n as the shortest JSON text of its float64 value. It reports false
// for a number outside float64 range, and for a whole number outside ±(2^53−1) when integer is
// set (a fractional value is left for the validator's type check).
func canonicalNumber(n json.Number, integer bool) (json.Number, bool) {
	v, err := strconv.ParseFloat(n.String(), 64)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "", false
	}
	// ErrRange with a finite result is underflow: the value rounds to zero, which is what
	// float64 consumers read too.
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", false
	}
	if integer && v == math.Trunc(v) && math.Abs(v) > maxSafeInteger {
		return "", false
	}
	return json.Number(formatNumber(v)), true
}

// formatNumber formats a finite float64 as encoding/json does (ECMAScript style: no trailing
// zeros, whole numbers below 1e21 without fraction or exponent); negative zero becomes 0.
func formatNumber(v float64) string {
	if v == 0 {
		return "0"
	}
	b, err := json.Marshal(v)
	if err != nil {
		// Unreachable for finite values.
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return string(b)
}

// fieldErrors keeps the first message per field.
type fieldErrors map[string]string

func (e fieldErrors) add(field, message string) {
	if _, ok := e[field]; !ok {
		e[field] = message
	}
}

// collect maps the validator's error tree to top-level keys.
func (f *Form) collect(e *jsonschema.ValidationError, errs fieldErrors) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			f.collect(c, errs)
		}
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, key := range k.Missing {
			errs.add(key, "is required")
		}
		return
	case *kind.AdditionalProperties:
		for _, key := range k.Properties {
			addUnknown(errs, key)
		}
		return
	}
	if len(e.InstanceLocation) == 0 {
		errs.add(dataField, "is invalid")
		return
	}
	key := e.InstanceLocation[0]
	p := f.props[key]
	if p == nil {
		addUnknown(errs, key)
		return
	}
	errs.add(key, p.message(e.ErrorKind))
}

// addUnknown reports an undeclared key by name when the name is a plausible key, and otherwise
// (it is submitted text, after all) against the data as a whole.
func addUnknown(errs fieldErrors, key string) {
	if len(key) <= maxKeyLength && keyPattern.MatchString(key) {
		errs.add(key, "is not a field of this form")
		return
	}
	errs.add(dataField, "contains a field this form does not have")
}

// message is the short English message for one failed keyword. It is built from the schema
// only, never from the submitted value.
func (p *property) message(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Type:
		switch p.jsonType {
		case "string":
			return "must be text"
		case "number":
			return "must be a number"
		case "integer":
			return "must be a whole number"
		case "boolean":
			return "must be true or false"
		}
	case *kind.Enum, *kind.Const, *kind.OneOf:
		return "must be one of the offered options"
	case *kind.Format:
		switch p.format {
		case "date":
			return "must be a date (YYYY-MM-DD)"
		case "date-time":
			return "must be a date and time with time zone (RFC 3339)"
		case "email":
			return "must be an email address"
		case "uri":
			return "must be an absolute URL"
		}
	case *kind.MinLength:
		if p.minLength != nil {
			return fmt.Sprintf("must be at least %d characters", *p.minLength)
		}
	case *kind.MaxLength:
		if p.maxLength != nil {
			return fmt.Sprintf("must be at most %d characters", *p.maxLength)
		}
	case *kind.Pattern:
		if p.formatHint != "" {
			return "must have the format: " + p.formatHint
		}
		return "does not have the expected format"
	case *kind.Minimum:
		if p.minimum != nil {
			return "must be at least " + formatNumber(*p.minimum)
		}
	case *kind.Maximum:
		if p.maximum != nil {
			return "must be at most " + formatNumber(*p.maximum)
		}
	case *kind.ExclusiveMinimum:
		if p.exclusiveMinimum != nil {
			return "must be greater than " + formatNumber(*p.exclusiveMinimum)
		}
	case *kind.ExclusiveMaximum:
		if p.exclusiveMaximum != nil {
			return "must be less than " + formatNumber(*p.exclusiveMaximum)
		}
	case *kind.MultipleOf:
		if p.multipleOf != nil {
			return "must be a multiple of " + formatNumber(*p.multipleOf)
		}
	}
	return "is invalid"
}

// sorted lists the errors: the data as a whole first, then declared fields in display order,
// then unknown keys by name.
func (f *Form) sorted(errs fieldErrors) []models.FieldError {
	out := make([]models.FieldError, 0, len(errs))
	if msg, ok := errs[dataField]; ok && f.props[dataField] == nil {
		out = append(out, models.FieldError{Field: dataField, Message: msg})
		delete(errs, dataField)
	}
	for _, fl := range f.fields {
		if msg, ok := errs[fl.Key]; ok {
			out = append(out, models.FieldError{Field: fl.Key, Message: msg})
			delete(errs, fl.Key)
		}
	}
	rest := sortedKeys(errs)
	for _, key := range rest {
		out = append(out, models.FieldError{Field: key, Message: errs[key]})
	}
	return out
}
