package forms

import (
	"encoding/json"
	"regexp"
	"strings"
)

// jsonNumber is the JSON number grammar (RFC 8259); strconv.ParseFloat accepts more ("Inf",
// "0x1p-2", "1_000") than JSON may carry.
var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// datetimeLocal is what an HTML `<input type="datetime-local">` posts: no seconds or zone.
var datetimeLocal = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$`)

// ParseFormValues turns an HTML form post into the JSON object Validate expects, typed by the
// form's fields; keys the form does not declare (CSRF token, action, revision…) are ignored.
//   - checkbox: present → true (unless its value is "false", "off" or "0"), absent → false;
//   - number / integer: a JSON number when the input is one, otherwise the text itself, so that
//     Validate reports "must be a number" next to the field;
//   - datetime: a `datetime-local` value (no zone) is read as UTC and completed to RFC 3339;
//   - everything else: the text.
//
// Inputs that are empty after trimming are omitted; of repeated inputs the first counts.
func (f *Form) ParseFormValues(values map[string][]string) json.RawMessage {
	out := map[string]any{}
	for _, fl := range f.fields {
		vs := values[fl.Key]
		if fl.Type == TypeCheckbox {
			out[fl.Key] = len(vs) > 0 && !isFalse(vs[0])
			continue
		}
		if len(vs) == 0 {
			continue
		}
		v := strings.TrimSpace(vs[0])
		if v == "" {
			continue
		}
		switch fl.Type {
		case TypeNumber, TypeInteger:
			if jsonNumber.MatchString(v) {
				out[fl.Key] = json.Number(v)
				continue
			}
		case TypeDateTime:
			if datetimeLocal.MatchString(v) {
				if len(v) == len("2006-01-02T15:04") {
					v += ":00"
				}
				v += "Z"
			}
		}
		out[fl.Key] = v
	}
	b, err := encodeJSON(out)
	if err != nil {
		// Unreachable: every value is a string, a bool or a grammar-checked number.
		return json.RawMessage(`{}`)
	}
	return b
}

func isFalse(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "off", "0":
		return true
	}
	return false
}
