package handlerstest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// contract validates requests and responses against the OpenAPI 3.1 document the server
// serves, with format assertions (date-time, uuid, uri) on.
type contract struct {
	mu      sync.Mutex // the validator's caches are not documented as safe for concurrent use
	v       validator.Validator
	problem *base.Schema
	schemas schema_validation.SchemaValidator
}

var contracts sync.Map // document text → *contract

// loadContract fetches /api/v1/openapi.json from the server (public: no token), checks it is a
// valid OpenAPI 3.1 document and builds its validator.
func loadContract(t testing.TB, baseURL string) *contract {
	t.Helper()
	resp, err := http.Get(baseURL + "/api/v1/openapi.json")
	if err != nil {
		t.Fatalf("fetch OpenAPI document: %v", err)
	}
	defer resp.Body.Close()
	doc, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("fetch OpenAPI document: status %d, %v", resp.StatusCode, err)
	}
	if c, ok := contracts.Load(string(doc)); ok {
		return c.(*contract)
	}
	document, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatalf("parse OpenAPI document: %v", err)
	}
	if v := document.GetSpecInfo().Version; v != "3.1.0" {
		t.Fatalf("OpenAPI version = %q, want 3.1.0", v)
	}
	v, errs := validator.NewValidator(document, config.WithFormatAssertions())
	if len(errs) > 0 {
		t.Fatalf("build OpenAPI validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		t.Fatalf("the OpenAPI document is invalid:\n%s", describe(verrs))
	}
	model, mErr := document.BuildV3Model()
	if mErr != nil {
		t.Fatalf("build OpenAPI model: %v", mErr)
	}
	problem := model.Model.Components.Schemas.GetOrZero("Problem")
	if problem == nil {
		t.Fatal("the OpenAPI document has no Problem schema")
	}
	c := &contract{v: v, problem: problem.Schema(), schemas: schema_validation.NewSchemaValidator(config.WithFormatAssertions())}
	actual, _ := contracts.LoadOrStore(string(doc), c)
	return actual.(*contract)
}

// checkRequest reports the document's objections to a request (nil when it conforms).
func (c *contract) checkRequest(method, url string, header http.Header, body []byte) []*liberrors.ValidationError {
	req := rebuild(method, url, header, body)
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, errs := c.v.ValidateHttpRequestSync(req); !ok {
		return errs
	}
	return nil
}

// checkResponse reports the document's objections to a response of a request on its paths.
func (c *contract) checkResponse(method, url string, header http.Header, body []byte, resp Response) []*liberrors.ValidationError {
	req := rebuild(method, url, header, body)
	r := &http.Response{StatusCode: resp.Status, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(resp.Body)), Request: req}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, errs := c.v.ValidateHttpResponse(req, r); !ok {
		return errs
	}
	return nil
}

// checkProblem reports the Problem schema's objections to a body (answers outside the document's
// paths: unknown routes, wrong methods).
func (c *contract) checkProblem(body []byte) []*liberrors.ValidationError {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, errs := c.schemas.ValidateSchemaBytes(c.problem, body); !ok {
		return errs
	}
	return nil
}

func rebuild(method, url string, header http.Header, body []byte) *http.Request {
	var r io.Reader = http.NoBody
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, r)
	req.Header = header.Clone()
	return req
}

func describe(errs []*liberrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("  - " + e.Error() + "\n")
	}
	return b.String()
}
