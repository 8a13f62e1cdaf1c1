package handlers

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"usertasks/models"
)

// queryReader reads query parameters and collects every problem, so one 422 names all the
// offending parameters. A parameter that may appear once and appears more often is a problem.
type queryReader struct {
	q        url.Values
	problems []models.FieldError
}

func (r *queryReader) fail(name, message string) {
	r.problems = append(r.problems, models.FieldError{Field: name, Message: message})
}

// err returns the collected problems as one validation-failed error.
func (r *queryReader) err() error {
	if len(r.problems) == 0 {
		return nil
	}
	return models.Invalid(models.CodeValidationFailed, r.problems...)
}

// str returns a single-valued parameter, "" when absent.
func (r *queryReader) str(name string) string {
	vs := r.q[name]
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return vs[0]
	}
	r.fail(name, "must be given once")
	return ""
}

// enum returns a parameter that must be one of allowed, "" when absent.
func (r *queryReader) enum(name string, allowed ...string) string {
	v := r.str(name)
	if v != "" && !slices.Contains(allowed, v) {
		r.fail(name, "must be one of "+strings.Join(allowed, ", "))
		return ""
	}
	return v
}

// integer returns a parameter that must be an integer in [lo, hi], nil when absent.
func (r *queryReader) integer(name string, lo, hi int) *int {
	v := r.str(name)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.fail(name, "must be an integer from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi))
		return nil
	}
	return &n
}

// time returns a parameter that must be an RFC 3339 time, nil when absent.
func (r *queryReader) time(name string) *time.Time {
	v := r.str(name)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		r.fail(name, "must be an RFC 3339 time")
		return nil
	}
	t = t.UTC()
	return &t
}

// boolean returns a parameter that must be true or false, false when absent.
func (r *queryReader) boolean(name string) bool {
	switch r.str(name) {
	case "", "false":
		return false
	case "true":
		return true
	}
	r.fail(name, "must be true or false")
	return false
}

// limit reads a page size: at least 1, larger values clamped to models.MaxPageSize, 0 when
// absent (the default page size).
func (r *queryReader) limit() int {
	v := r.str("limit")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		r.fail("limit", "must be a positive integer")
		return 0
	}
	return min(n, models.MaxPageSize)
}
