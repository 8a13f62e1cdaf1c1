package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"usertasks/models"
)

// schemaField names the schema in Parse's field errors.
const schemaField = "form.schema"

// formURL is the location the schema is compiled at. It is never fetched: the compiler's loader
// refuses every URL, and the draft 2020-12 meta-schemas are embedded in the library.
const formURL = "urn:usertasks:form"

// draft202012 is the only `$schema` a form may name (with or without the empty fragment).
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// maxKeyLength bounds a property key; keys become HTML names and ids and error field names.
const maxKeyLength = 64

// keyPattern keeps property keys safe as HTML form names, element ids and error field names.
var keyPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

var (
	rootKeywords = []string{
		"$schema", "$id", "$comment", "title", "description",
		"type", "properties", "required", "additionalProperties",
	}
	annotationKeywords = []string{"$comment", "title", "description", "type", uiKeyword}
	stringKeywords     = []string{"enum", "oneOf", "format", "minLength", "maxLength", "pattern"}
	numberKeywords     = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	uiKeys             = []string{"label", "widget", "order", "masked", "help", "formatHint"}
	formats            = []string{"date", "date-time", "email", "uri"}
	widgets            = []string{"textarea", "select", "radio"}
)

// uiKeyword holds the UI hints of a property:
//   - label: the field's label (else the title, else the key in words);
//   - widget: textarea for long text, select or radio for an enum;
//   - order: the display position (fields without one come last, by key);
//   - masked: the value is hidden until revealed, one reveal at a time, audited;
//   - help: a sentence shown under the label (else the description);
//   - formatHint: what a valid value looks like, for text fields, e.g. "two letters, two
//     digits, then 10 to 30 letters or digits". The pages show it under the field, and a value
//     the pattern refuses is told "must have the format: <hint>" instead of a bare "does not
//     have the expected format". One line of at most maxFormatHint characters.
const uiKeyword = "x-ui"

// maxFormatHint bounds a format hint; it is read next to a field, not a manual.
const maxFormatHint = 120

// Parse checks that schema is a form this product supports (SPEC 3.7) and compiles it with a
// draft 2020-12 validator that asserts the date, date-time, email and uri formats and never
// loads anything from the network.
//
// A form is an object schema whose properties are primitives; `additionalProperties` may be
// true or false and is false when absent, so unknown keys in completion data are refused.
// Every refusal is a validation-failed error on "form.schema" (payload-too-large when the schema
// is over models.MaxProtectedPayloadBytes); both wrap models.ErrInvalid.
func Parse(schema json.RawMessage) (*Form, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, models.InvalidField(schemaField, "is required")
	}
	if len(schema) > models.MaxProtectedPayloadBytes {
		return nil, models.Invalid(models.CodePayloadTooLarge, models.FieldError{
			Field: schemaField, Message: "is larger than 256 KiB",
		})
	}
	doc, err := decodeJSON(schema)
	if err != nil {
		return nil, schemaError("is not valid JSON")
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, schemaError("must be a JSON object")
	}

	f, err := parseRoot(root)
	if err != nil {
		return nil, err
	}
	if _, ok := root["additionalProperties"]; !ok {
		// Absent means false for completion data: unknown keys are refused, not ignored.
		root["additionalProperties"] = false
	}
	f.schema, err = compile(root)
	if err != nil {
		return nil, err
	}
	for _, p := range orderedProperties(f.props) {
		f.fields = append(f.fields, p.field())
	}
	return f, nil
}

// schemaError is a refusal of the schema.
func schemaError(format string, args ...any) error {
	return models.InvalidField(schemaField, fmt.Sprintf(format, args...))
}

// propertyError is a refusal naming one property.
func propertyError(key, format string, args ...any) error {
	return schemaError("property %q: %s", key, fmt.Sprintf(format, args...))
}

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func parseRoot(root map[string]any) (*Form, error) {
	if ref, ok := root["$ref"]; ok {
		return nil, refError("", ref)
	}
	for _, kw := range sortedKeys(root) {
		if !slices.Contains(rootKeywords, kw) {
			return nil, unsupportedKeyword("", kw)
		}
	}
	if s, ok := root["$schema"]; ok {
		if s, _ := s.(string); strings.TrimSuffix(s, "#") != draft202012 {
			return nil, schemaError("$schema must be %q", draft202012)
		}
	}
	if id, ok := root["$id"]; ok {
		if _, ok := id.(string); !ok {
			return nil, schemaError("$id must be a string")
		}
	}
	for _, kw := range []string{"$comment", "title", "description"} {
		if v, ok := root[kw]; ok {
			if _, ok := v.(string); !ok {
				return nil, schemaError("%s must be a string", kw)
			}
		}
	}
	if t, _ := root["type"].(string); t != "object" {
		return nil, schemaError(`type must be "object"`)
	}

	f := &Form{props: map[string]*property{}}
	switch ap := root["additionalProperties"].(type) {
	case nil:
		if _, present := root["additionalProperties"]; present {
			return nil, schemaError("additionalProperties must be true or false")
		}
	case bool:
		f.additional = ap
	default:
		return nil, schemaError("additionalProperties must be true or false")
	}

	props := map[string]any{}
	if raw, ok := root["properties"]; ok {
		if props, ok = raw.(map[string]any); !ok {
			return nil, schemaError("properties must be an object")
		}
	}
	for _, key := range sortedKeys(props) {
		if len(key) > maxKeyLength || !keyPattern.MatchString(key) {
			return nil, schemaError("property key %q must start with a letter or underscore, "+
				"contain only letters, digits, '_', '-' and '.', and be at most %d characters",
				truncate(key, maxKeyLength), maxKeyLength)
		}
		obj, ok := props[key].(map[string]any)
		if !ok {
			return nil, propertyError(key, "must be a schema object")
		}
		p, err := parseProperty(key, obj)
		if err != nil {
			return nil, err
		}
		f.props[key] = p
	}

	if raw, ok := root["required"]; ok {
		list, ok := raw.([]any)
		if !ok {
			return nil, schemaError("required must be an array of property keys")
		}
		for _, item := range list {
			key, ok := item.(string)
			if !ok {
				return nil, schemaError("required must be an array of property keys")
			}
			p, declared := f.props[key]
			if !declared {
				return nil, schemaError("required names %q, which is not a declared property", truncate(key, maxKeyLength))
			}
			if p.required {
				return nil, schemaError("required names %q twice", key)
			}
			p.required = true
		}
	}
	return f, nil
}

func parseProperty(key string, obj map[string]any) (*property, error) {
	if ref, ok := obj["$ref"]; ok {
		return nil, refError(key, ref)
	}
	p := &property{key: key}
	switch t := obj["type"].(type) {
	case string:
		p.jsonType = t
	case nil:
		return nil, propertyError(key, "type is required")
	default:
		return nil, propertyError(key, "type must be one of string, number, integer, boolean")
	}
	switch p.jsonType {
	case "string", "number", "integer", "boolean":
	case "object":
		return nil, propertyError(key, "nested objects are not supported")
	case "array":
		return nil, propertyError(key, "arrays are not supported")
	default:
		return nil, propertyError(key, "type must be one of string, number, integer, boolean")
	}

	allowed := annotationKeywords
	switch p.jsonType {
	case "string":
		allowed = slices.Concat(allowed, stringKeywords)
	case "number", "integer":
		allowed = slices.Concat(allowed, numberKeywords)
	}
	for _, kw := range sortedKeys(obj) {
		if slices.Contains(allowed, kw) {
			continue
		}
		switch {
		case kw == "enum":
			return nil, propertyError(key, "enum is only supported on strings")
		case kw == "format":
			return nil, propertyError(key, "format is only supported on strings")
		case slices.Contains(stringKeywords, kw) || slices.Contains(numberKeywords, kw):
			return nil, propertyError(key, "%s does not apply to type %s", kw, p.jsonType)
		}
		return nil, unsupportedKeyword(key, kw)
	}
	for _, kw := range []string{"$comment", "title", "description"} {
		if v, ok := obj[kw]; ok {
			if _, ok := v.(string); !ok {
				return nil, propertyError(key, "%s must be a string", kw)
			}
		}
	}
	p.label, _ = obj["title"].(string)
	p.help, _ = obj["description"].(string)

	var err error
	switch p.jsonType {
	case "string":
		err = p.parseString(obj)
	case "number", "integer":
		err = p.parseNumber(obj)
	}
	if err != nil {
		return nil, err
	}
	if err := p.parseUI(obj[uiKeyword]); err != nil {
		return nil, err
	}
	return p, nil
}

// parseTitledOptions reads the options of a string that people choose by a label while the
// data keeps a code: `oneOf` of `{const, title}` (JSON Schema's titled enum). The consts are the
// options; a missing title shows the const.
func (p *property) parseTitledOptions(raw any, obj map[string]any) error {
	const shape = "oneOf must be a non-empty array of {const, title} options"
	if _, both := obj["enum"]; both {
		return propertyError(p.key, "enum cannot be combined with oneOf")
	}
	list, ok := raw.([]any)
	if !ok || len(list) == 0 {
		return propertyError(p.key, shape)
	}
	for _, item := range list {
		opt, ok := item.(map[string]any)
		if !ok {
			return propertyError(p.key, shape)
		}
		for kw := range opt {
			if kw != "const" && kw != "title" && kw != "description" {
				return propertyError(p.key, "oneOf options may only have const, title and description")
			}
		}
		c, ok := opt["const"].(string)
		if !ok {
			return propertyError(p.key, "each oneOf option needs a string const")
		}
		if c == "" || strings.TrimSpace(c) != c {
			return propertyError(p.key, "enum options must be non-empty and without surrounding spaces")
		}
		if slices.Contains(p.enum, c) {
			return propertyError(p.key, "enum options must be unique")
		}
		title, isText := opt["title"].(string)
		if _, has := opt["title"]; has && !isText {
			return propertyError(p.key, "a oneOf option's title must be a string")
		}
		if strings.TrimSpace(title) == "" {
			title = c
		}
		p.enum = append(p.enum, c)
		p.titles = append(p.titles, title)
	}
	return nil
}

func (p *property) parseString(obj map[string]any) error {
	if raw, ok := obj["enum"]; ok {
		list, ok := raw.([]any)
		if !ok || len(list) == 0 {
			return propertyError(p.key, "enum must be a non-empty array of strings")
		}
		for _, item := range list {
			s, ok := item.(string)
			if !ok {
				return propertyError(p.key, "enum must be a non-empty array of strings")
			}
			// Submitted strings are trimmed and empty ones dropped, so such options could
			// never be chosen.
			if s == "" || strings.TrimSpace(s) != s {
				return propertyError(p.key, "enum options must be non-empty and without surrounding spaces")
			}
			if slices.Contains(p.enum, s) {
				return propertyError(p.key, "enum options must be unique")
			}
			p.enum = append(p.enum, s)
		}
	}
	if raw, ok := obj["oneOf"]; ok {
		if err := p.parseTitledOptions(raw, obj); err != nil {
			return err
		}
	}
	if raw, ok := obj["format"]; ok {
		s, _ := raw.(string)
		if !slices.Contains(formats, s) {
			return propertyError(p.key, "format must be one of %s", strings.Join(formats, ", "))
		}
		if len(p.enum) > 0 {
			return propertyError(p.key, "enum cannot be combined with format")
		}
		p.format = s
	}
	var err error
	if p.minLength, err = lengthKeyword(p.key, obj, "minLength"); err != nil {
		return err
	}
	if p.maxLength, err = lengthKeyword(p.key, obj, "maxLength"); err != nil {
		return err
	}
	if p.minLength != nil && p.maxLength != nil && *p.minLength > *p.maxLength {
		return propertyError(p.key, "minLength is greater than maxLength")
	}
	if raw, ok := obj["pattern"]; ok {
		s, ok := raw.(string)
		if !ok {
			return propertyError(p.key, "pattern must be a string")
		}
		if _, err := regexp.Compile(s); err != nil {
			return propertyError(p.key, "pattern is not a supported regular expression (RE2 syntax)")
		}
		p.pattern = s
	}
	return nil
}

func lengthKeyword(key string, obj map[string]any, kw string) (*int, error) {
	raw, ok := obj[kw]
	if !ok {
		return nil, nil
	}
	n, ok := raw.(json.Number)
	if !ok {
		return nil, propertyError(key, "%s must be a non-negative integer", kw)
	}
	v, err := strconv.Atoi(n.String())
	if err != nil || v < 0 {
		return nil, propertyError(key, "%s must be a non-negative integer", kw)
	}
	return &v, nil
}

func (p *property) parseNumber(obj map[string]any) error {
	for _, kw := range numberKeywords {
		raw, ok := obj[kw]
		if !ok {
			continue
		}
		n, ok := raw.(json.Number)
		if !ok {
			return propertyError(p.key, "%s must be a number", kw)
		}
		v, err := strconv.ParseFloat(n.String(), 64)
		if err != nil || math.IsInf(v, 0) {
			return propertyError(p.key, "%s is out of range", kw)
		}
		// The validator compares exactly; give it the same number Fields reports.
		obj[kw] = json.Number(formatNumber(v))
		switch kw {
		case "minimum":
			p.minimum = &v
		case "maximum":
			p.maximum = &v
		case "exclusiveMinimum":
			p.exclusiveMinimum = &v
		case "exclusiveMaximum":
			p.exclusiveMaximum = &v
		case "multipleOf":
			if v <= 0 {
				return propertyError(p.key, "multipleOf must be greater than 0")
			}
			p.multipleOf = &v
		}
	}
	lo, hi := p.inclusiveBounds()
	if lo != nil && hi != nil && *lo > *hi {
		return propertyError(p.key, "the minimum is greater than the maximum")
	}
	return nil
}

func (p *property) parseUI(raw any) error {
	if raw == nil {
		return nil
	}
	ui, ok := raw.(map[string]any)
	if !ok {
		return propertyError(p.key, "x-ui must be an object")
	}
	for _, k := range sortedKeys(ui) {
		if !slices.Contains(uiKeys, k) {
			return propertyError(p.key, "unknown x-ui hint %q (supported: %s)", truncate(k, 32), strings.Join(uiKeys, ", "))
		}
	}
	for _, k := range []string{"label", "help"} {
		v, ok := ui[k]
		if !ok {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return propertyError(p.key, "x-ui %s must be a string", k)
		}
		if k == "label" && strings.TrimSpace(s) != "" {
			p.label = strings.TrimSpace(s)
		}
		if k == "help" && strings.TrimSpace(s) != "" {
			p.help = strings.TrimSpace(s)
		}
	}
	if v, ok := ui["formatHint"]; ok {
		hint, err := parseFormatHint(p, v)
		if err != nil {
			return err
		}
		p.formatHint = hint
	}
	if v, ok := ui["masked"]; ok {
		if p.masked, ok = v.(bool); !ok {
			return propertyError(p.key, "x-ui masked must be true or false")
		}
	}
	if v, ok := ui["order"]; ok {
		n, _ := v.(json.Number)
		order, err := strconv.Atoi(n.String())
		if err != nil {
			return propertyError(p.key, "x-ui order must be an integer")
		}
		p.order = &order
	}
	if v, ok := ui["widget"]; ok {
		w, _ := v.(string)
		if !slices.Contains(widgets, w) {
			return propertyError(p.key, "x-ui widget must be one of %s", strings.Join(widgets, ", "))
		}
		switch {
		case p.jsonType != "string":
			return propertyError(p.key, "x-ui widget %s needs a string property", w)
		case (w == "select" || w == "radio") && len(p.enum) == 0:
			return propertyError(p.key, "x-ui widget %s needs an enum", w)
		case w == "textarea" && (len(p.enum) > 0 || p.format != ""):
			return propertyError(p.key, "x-ui widget textarea cannot be combined with enum or format")
		}
		p.widget = w
	}
	return nil
}

// parseFormatHint checks a format hint: one short line of text, on a text property.
func parseFormatHint(p *property, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", propertyError(p.key, "x-ui formatHint must be a string")
	}
	s = strings.TrimSpace(s)
	switch {
	case p.jsonType != "string":
		return "", propertyError(p.key, "x-ui formatHint needs a string property")
	case s == "":
		return "", propertyError(p.key, "x-ui formatHint must not be empty")
	case utf8.RuneCountInString(s) > maxFormatHint:
		return "", propertyError(p.key, "x-ui formatHint must be at most %d characters", maxFormatHint)
	case strings.IndexFunc(s, unsafeRune) >= 0:
		return "", propertyError(p.key, "x-ui formatHint must not contain control characters")
	}
	return s, nil
}

// unsafeRune reports a control character (line breaks included) or a bidirectional override,
// mark or isolate: none belongs in a one-line hint shown on a page.
func unsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// refError refuses a $ref: a remote one explicitly, a local one because forms are flat.
func refError(key string, ref any) error {
	msg := "$ref is not supported; declare every property inline"
	if s, _ := ref.(string); !strings.HasPrefix(s, "#") {
		msg = "$ref to a remote document is not allowed"
	}
	if key == "" {
		return schemaError("%s", msg)
	}
	return propertyError(key, "%s", msg)
}

func unsupportedKeyword(key, kw string) error {
	kw = truncate(kw, 32)
	var msg string
	switch kw {
	case "$dynamicRef", "$defs", "definitions", "$anchor", "$dynamicAnchor":
		msg = fmt.Sprintf("%s is not supported; declare every property inline", kw)
	case "items", "prefixItems", "contains":
		msg = "arrays are not supported"
	case "allOf", "anyOf", "oneOf", "not", "if", "then", "else":
		msg = fmt.Sprintf("%s is not supported; a form is a flat object of primitives", kw)
	default:
		msg = fmt.Sprintf("keyword %q is not supported", kw)
	}
	if key == "" {
		return schemaError("%s", msg)
	}
	return propertyError(key, "%s", msg)
}

// compile compiles the checked schema document. The loader refuses every URL: a form is
// self-contained, and the only external documents it may name (the draft 2020-12
// meta-schemas) are embedded in the library.
func compile(doc map[string]any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refusingLoader{})
	if err := c.AddResource(formURL, doc); err != nil {
		return nil, schemaError("cannot be compiled")
	}
	sch, err := c.Compile(formURL)
	if err != nil {
		// The checks above should have caught anything the compiler refuses; keep the
		// library's text out of the message, it may quote the schema.
		return nil, schemaError("is not a valid draft 2020-12 schema")
	}
	return sch, nil
}

// refusingLoader is a jsonschema.URLLoader that loads nothing.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("forms: loading %q refused: forms must be self-contained", url)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// truncate shortens s for an error message.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
