// Package forms parses the JSON Schema forms of SPEC 3.7, describes their fields for the JSON API
// and the HTML renderer, validates and normalizes completion data against them, and hides masked
// values.
//
// A form is a draft 2020-12 object schema whose properties are primitives. Parse refuses
// everything else, so the rest of the package can rely on a flat object of strings, numbers,
// integers and booleans.
package forms

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Field types, as the JSON API's `form.fields[].type` and the HTML renderer see them.
const (
	TypeText     = "text"
	TypeTextarea = "textarea"
	TypeNumber   = "number"
	TypeInteger  = "integer"
	TypeDate     = "date"
	TypeDateTime = "datetime"
	TypeSelect   = "select"
	TypeRadio    = "radio"
	TypeCheckbox = "checkbox"
	TypeEmail    = "email"
	TypeURL      = "url"
)

// Field describes one input of a form, in display order.
type Field struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Masked   bool     `json:"masked"`
	Options  []string `json:"options,omitempty"`
	// OptionTitles are the options as people read them (a oneOf option's title), one per
	// option; nil when the schema gives none (a plain enum shows its options).
	OptionTitles []string `json:"optionTitles,omitempty"`
	Help         string   `json:"help,omitempty"`
	FormatHint   string   `json:"formatHint,omitempty"` // x-ui formatHint: what a valid value looks like
	Min          *float64 `json:"min,omitempty"`
	Max          *float64 `json:"max,omitempty"`
	MinLength    *int     `json:"minLength,omitempty"`
	MaxLength    *int     `json:"maxLength,omitempty"`
}

// Form is a parsed, compiled form schema. It is immutable and safe for concurrent use.
type Form struct {
	schema     *jsonschema.Schema
	props      map[string]*property
	fields     []Field // display order
	additional bool    // additionalProperties: true — unknown keys pass validation and are dropped
}

// property is one declared property with everything Parse checked.
type property struct {
	key        string
	jsonType   string // string | number | integer | boolean
	format     string // date | date-time | email | uri, strings only
	enum       []string
	titles     []string // oneOf titles, parallel to enum; nil for a plain enum
	widget     string   // textarea | select | radio
	order      *int
	masked     bool
	label      string
	help       string
	formatHint string
	required   bool

	minimum, maximum                   *float64
	exclusiveMinimum, exclusiveMaximum *float64
	multipleOf                         *float64
	minLength, maxLength               *int
	pattern                            string
}

// Fields returns the form's fields ordered by `x-ui.order` (fields without an order last), then
// by key. The slice is a copy; callers may change it.
func (f *Form) Fields() []Field {
	out := make([]Field, len(f.fields))
	for i, fl := range f.fields {
		fl.Options = slices.Clone(fl.Options)
		fl.OptionTitles = slices.Clone(fl.OptionTitles)
		fl.Min = clonePtr(fl.Min)
		fl.Max = clonePtr(fl.Max)
		fl.MinLength = clonePtr(fl.MinLength)
		fl.MaxLength = clonePtr(fl.MaxLength)
		out[i] = fl
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// orderedProperties sorts the properties for display.
func orderedProperties(props map[string]*property) []*property {
	out := make([]*property, 0, len(props))
	for _, p := range props {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *property) int {
		switch {
		case a.order != nil && b.order == nil:
			return -1
		case a.order == nil && b.order != nil:
			return 1
		case a.order != nil && b.order != nil && *a.order != *b.order:
			return cmp.Compare(*a.order, *b.order)
		}
		return strings.Compare(a.key, b.key)
	})
	return out
}

// field builds the Field that describes p.
func (p *property) field() Field {
	fl := Field{
		Key:          p.key,
		Label:        p.label,
		Type:         p.fieldType(),
		Required:     p.required,
		Masked:       p.masked,
		Options:      slices.Clone(p.enum),
		OptionTitles: slices.Clone(p.titles),
		Help:         p.help,
		FormatHint:   p.formatHint,
		MinLength:    clonePtr(p.minLength),
		MaxLength:    clonePtr(p.maxLength),
	}
	if fl.Label == "" {
		fl.Label = humanize(p.key)
	}
	if p.jsonType == "number" || p.jsonType == "integer" {
		fl.Min, fl.Max = p.inclusiveBounds()
	}
	return fl
}

// fieldType chooses the input type from the JSON type, format and widget.
func (p *property) fieldType() string {
	switch p.jsonType {
	case "boolean":
		return TypeCheckbox
	case "number":
		return TypeNumber
	case "integer":
		return TypeInteger
	}
	switch {
	case len(p.enum) > 0 && p.widget == "radio":
		return TypeRadio
	case len(p.enum) > 0:
		return TypeSelect
	case p.format == "date":
		return TypeDate
	case p.format == "date-time":
		return TypeDateTime
	case p.format == "email":
		return TypeEmail
	case p.format == "uri":
		return TypeURL
	case p.widget == "textarea":
		return TypeTextarea
	}
	return TypeText
}

// inclusiveBounds returns the bounds an HTML input can express (`min`/`max` are inclusive).
// For integers the bounds become the outermost whole numbers inside them, exclusive ones
// included; for numbers an exclusive bound has no inclusive equivalent and is left to
// server-side validation.
func (p *property) inclusiveBounds() (lo, hi *float64) {
	lo, hi = clonePtr(p.minimum), clonePtr(p.maximum)
	if p.jsonType != "integer" {
		return lo, hi
	}
	if lo != nil {
		*lo = math.Ceil(*lo)
	}
	if hi != nil {
		*hi = math.Floor(*hi)
	}
	if p.exclusiveMinimum != nil {
		v := math.Floor(*p.exclusiveMinimum) + 1
		if lo == nil || v > *lo {
			lo = &v
		}
	}
	if p.exclusiveMaximum != nil {
		v := math.Ceil(*p.exclusiveMaximum) - 1
		if hi == nil || v < *hi {
			hi = &v
		}
	}
	return lo, hi
}

// humanize turns a property key into a label: "firstName", "first_name" and "first-name" all
// become "First name"; all-capital words ("ID", "URL") keep their case.
func humanize(key string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(key)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || unicode.IsSpace(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "firstName" splits before N; "customerID" before I; "URLValue" before V.
			if !unicode.IsUpper(prev) || nextLower {
				flush()
			}
		case unicode.IsDigit(r) && len(cur) > 0 && !unicode.IsDigit(cur[len(cur)-1]):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	for i, w := range words {
		if isAllUpper(w) && len([]rune(w)) > 1 {
			continue
		}
		w = strings.ToLower(w)
		if i == 0 {
			r := []rune(w)
			r[0] = unicode.ToUpper(r[0])
			w = string(r)
		}
		words[i] = w
	}
	if len(words) == 0 {
		return key
	}
	return strings.Join(words, " ")
}

func isAllUpper(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) && !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
