package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// environment is the process environment by name. Every value is read through value or
// secret, so every variable is trimmed the same way, and an empty one counts as unset.
type environment map[string]string

// environ turns os.Environ's NAME=value pairs into an environment; the first of repeated
// names wins, as with os.Getenv.
func environ(pairs []string) environment {
	e := environment{}
	for _, p := range pairs {
		name, v, _ := strings.Cut(p, "=")
		if _, seen := e[name]; !seen {
			e[name] = v
		}
	}
	return e
}

// value is the variable's value without surrounding space; "" when unset or blank.
func (e environment) value(name string) string { return strings.TrimSpace(e[name]) }

// secret reads a variable that may instead be given as a file: NAME's value, else the
// content of the file NAME_FILE names, both without surrounding space. NAME wins when both
// are set. A named file that cannot be read, or holds nothing, is an error naming NAME_FILE
// and the path, never the content.
func (e environment) secret(name string) (string, error) {
	if v := e.value(name); v != "" {
		return v, nil
	}
	path := e.value(name + "_FILE")
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", name, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return "", fmt.Errorf("%s_FILE: %s is empty", name, path)
	}
	return v, nil
}

// text stores a value as it is.
func text(dst *string) func(name, v string) error {
	return func(_, v string) error {
		*dst = v
		return nil
	}
}

// boolean stores a value strconv.ParseBool accepts.
func boolean(dst *bool) func(name, v string) error {
	return func(name, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%s=%s is not a boolean", name, quoteShort(v))
		}
		*dst = b
		return nil
	}
}

// duration stores a Go duration of at least least. examples ("30s, 2m") are named in the
// refusal; without them the refusal tells apart a value that is no duration from one that is
// too small (the wording of the worker cadence variables).
func duration(dst *time.Duration, least time.Duration, examples string) func(name, v string) error {
	return func(name, v string) error {
		d, err := time.ParseDuration(v)
		switch {
		case examples != "" && (err != nil || d < least):
			what := "duration of at least " + least.String()
			if least <= time.Nanosecond {
				what = "positive duration"
			}
			return fmt.Errorf("%s=%s is not a %s (e.g. %s)", name, quoteShort(v), what, examples)
		case err != nil:
			return fmt.Errorf("%s=%s: not a duration", name, quoteShort(v))
		case d < least:
			return fmt.Errorf("%s=%s: must be at least %s", name, quoteShort(v), least)
		}
		*dst = d
		return nil
	}
}

// quoteShort quotes a configured value for an error message, cut to a readable length.
func quoteShort(v string) string {
	const limit = 32
	if len(v) > limit {
		return fmt.Sprintf("%q…", v[:limit])
	}
	return fmt.Sprintf("%q", v)
}
