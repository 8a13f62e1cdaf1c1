package views

import (
	"strings"

	"usertasks/forms"
)

// inputType is the HTML input type of a form field. A number field holding text that is not a
// number (kept after a refused post) is a text input, so the person sees what they typed.
func inputType(f Field) string {
	if f.AsText {
		return "text"
	}
	switch f.Type {
	case forms.TypeNumber, forms.TypeInteger:
		return "number"
	case forms.TypeDate:
		return "date"
	case forms.TypeDateTime:
		return "datetime-local"
	case forms.TypeEmail:
		return "email"
	case forms.TypeURL:
		return "url"
	}
	return "text"
}

// describedBy lists the ids of a field's help, format, keep hint and error texts.
func describedBy(f Field) string {
	return joinIDs(when(f.Help != "", f.ID+"-help"), when(f.Format != "", f.ID+"-format"),
		when(keepsHidden(f), f.ID+"-keep"), when(f.Error != "", f.ID+"-error"))
}

// keepsHidden reports a masked input whose hidden value is kept when it is left empty (a
// checkbox or radio group always posts a value, so it has nothing to keep).
func keepsHidden(f Field) bool {
	return f.Masked && f.Type != forms.TypeCheckbox && f.Type != forms.TypeRadio
}

// when returns id when on is set, otherwise "".
func when(on bool, id string) string {
	if on {
		return id
	}
	return ""
}

// joinIDs joins the non-empty ids for aria-describedby.
func joinIDs(ids ...string) string {
	var out []string
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return strings.Join(out, " ")
}

// displayValue is a read-only field's value: the option label for choices, else the value.
func displayValue(f Field) string {
	if f.Display != "" {
		return f.Display
	}
	for _, o := range f.Options {
		if o.Value == f.Value {
			return o.Label
		}
	}
	return f.Value
}
