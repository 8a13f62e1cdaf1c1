package handlerstest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Contract says how a request relates to the OpenAPI document. Whatever it says, the response
// is checked.
type Contract int

const (
	// Conforms: the request must satisfy the document (the default).
	Conforms Contract = iota
	// Breaks: the request deliberately violates the document (a missing token, an unknown
	// member, a bad parameter…) and the document must say so.
	Breaks
	// Outside: the method and path are not in the document (unknown route, wrong method); the
	// response body must still be a Problem.
	Outside
)

// Request is one HTTP call.
type Request struct {
	Method string
	Path   string // with the query string
	Token  string // sent as a bearer token when set
	// Body is sent as is when a string or []byte, JSON-encoded otherwise; nil sends none.
	Body   any
	Header http.Header
	// Chunked hides the body's length (no Content-Length), so the server's body limit is met
	// while reading rather than from the header.
	Chunked  bool
	Contract Contract
}

// Response is a server's answer, read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends r and checks it and its answer against the OpenAPI document. It reports failures
// with t.Errorf only, so it may run on many goroutines; a transport failure returns Status 0.
func (e *Env) Do(t testing.TB, r Request) Response {
	t.Helper()
	var body []byte
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = []byte(b)
	case []byte:
		body = b
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			t.Errorf("encode request body: %v", err)
			return Response{}
		}
	}
	header := r.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	if r.Token != "" {
		header.Set("Authorization", "Bearer "+r.Token)
	}
	if body != nil && header.Get("Content-Type") == "" {
		header.Set("Content-Type", "application/json")
	}
	url := e.URL + r.Path
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
		if r.Chunked {
			reader = io.MultiReader(reader) // no Len: sent chunked
		}
	}
	req, err := http.NewRequest(r.Method, url, reader)
	if err != nil {
		t.Errorf("build request: %v", err)
		return Response{}
	}
	req.Header = header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", r.Method, r.Path, err)
		return Response{}
	}
	defer resp.Body.Close()
	out := Response{Status: resp.StatusCode, Header: resp.Header}
	if out.Body, err = io.ReadAll(resp.Body); err != nil {
		t.Errorf("%s %s: read response: %v", r.Method, r.Path, err)
		return Response{}
	}

	c := e.contract
	switch r.Contract {
	case Conforms:
		if errs := c.checkRequest(r.Method, url, header, body); errs != nil {
			t.Errorf("%s %s: the request does not conform to the OpenAPI document:\n%s", r.Method, r.Path, describe(errs))
		}
	case Breaks:
		if errs := c.checkRequest(r.Method, url, header, body); errs == nil {
			t.Errorf("%s %s: the request was meant to break the OpenAPI document, but it conforms", r.Method, r.Path)
		}
	}
	if r.Contract == Outside {
		if errs := c.checkProblem(out.Body); errs != nil {
			t.Errorf("%s %s: %d answer is not a Problem:\n%s%s", r.Method, r.Path, out.Status, describe(errs), out.Body)
		}
	} else if errs := c.checkResponse(r.Method, url, header, body, out); errs != nil {
		t.Errorf("%s %s: the %d answer does not conform to the OpenAPI document:\n%s%s", r.Method, r.Path, out.Status, describe(errs), truncate(out.Body))
	}
	return out
}

// JSON decodes the body into v.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d answer: %v\n%s", r.Status, err, truncate(r.Body))
	}
}

// Problem is an error answer.
type Problem struct {
	Type   string       `json:"type"`
	Title  string       `json:"title"`
	Status int          `json:"status"`
	Code   string       `json:"code"`
	Detail string       `json:"detail"`
	Errors []FieldError `json:"errors"`
}

// FieldError is one offending field of a Problem.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Problem decodes an error answer after checking its media type.
func (r Response) Problem(t testing.TB) Problem {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json (status %d)\n%s", ct, r.Status, truncate(r.Body))
	}
	var p Problem
	r.JSON(t, &p)
	return p
}

// Fields lists the problem's field names.
func (p Problem) Fields() []string {
	out := []string{}
	for _, f := range p.Errors {
		out = append(out, f.Field)
	}
	return out
}

func truncate(b []byte) string {
	s := string(b)
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return strings.TrimSpace(s)
}

// WantStatus stops the test unless the answer has status want.
func (r Response) WantStatus(t testing.TB, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status = %d, want %d\n%s", r.Status, want, truncate(r.Body))
	}
}

// WantProblem stops the test unless the answer is a problem with status and code; it returns
// the problem.
func (r Response) WantProblem(t testing.TB, status int, code string) Problem {
	t.Helper()
	r.WantStatus(t, status)
	p := r.Problem(t)
	if p.Code != code || p.Status != status {
		t.Fatalf("problem = %d %s, want %d %s\n%s", p.Status, p.Code, status, code, truncate(r.Body))
	}
	if got, want := p.Type, "urn:usertasks:problem:"+code; got != want {
		t.Errorf("problem type = %q, want %q", got, want)
	}
	return p
}

// TaskPath is the path of a task, or of one of its sub-resources (suffix "claim", "events"…).
func TaskPath(id string, suffix ...string) string {
	p := "/api/v1/user-tasks/" + id
	for _, s := range suffix {
		p += "/" + s
	}
	return p
}
