package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"

	"usertasks/directory"
	"usertasks/formsource"
	"usertasks/models"
	"usertasks/store"
	"usertasks/workflow"
)

// sampleBookmark is a valid projection request with fresh workflow ids; mutate adjusts it.
func sampleBookmark(mutate func(r *workflow.ProjectionRequest)) workflow.ProjectionRequest {
	r := workflow.ProjectionRequest{
		BookmarkLink: workflow.BookmarkLink{WorkflowDefinitionID: "invoice", WorkflowInstanceID: models.NewID(),
			ActivityInstanceID: "approve", BookmarkID: models.NewID()},
		Task: workflow.TaskDefinition{Title: "Approve invoice"},
	}
	if mutate != nil {
		mutate(&r)
	}
	return r
}

const approvalSchemaV1 = `{"type":"object","required":["decision"],"properties":{
 "decision":{"type":"string","enum":["approve","reject"],"x-ui":{"label":"Decision","order":1}}}}`

const approvalSchemaV2 = `{"type":"object","required":["decision"],"properties":{
 "decision":{"type":"string","enum":["approve","reject"],"x-ui":{"label":"Decision","order":1}},
 "iban":{"type":"string","x-ui":{"label":"IBAN","masked":true,"order":2}}}}`

// testForms is a form folder with two versions of "approval" and a broken "broken".
func testForms() fstest.MapFS {
	return fstest.MapFS{
		"approval/1.json": {Data: []byte(approvalSchemaV1)},
		"approval/2.json": {Data: []byte(approvalSchemaV2)},
		"approval/notes":  {Data: []byte("not a version")},
		"broken/1.json":   {Data: []byte(`{"type":"array"}`)},
	}
}

// testDirectory has tenant t1 with groups finance (ann, bob) and empty (no members).
var testDirectory = directory.Static{Tenants: map[string]directory.StaticTenant{
	"t1": {
		Users: []directory.StaticUser{
			{ID: "ann", DisplayName: "Ann", Groups: []string{"finance"}},
			{ID: "bob", DisplayName: "Bob", Groups: []string{"finance", "ops"}},
			{ID: "eve", DisplayName: "Eve"},
		},
		Groups: []directory.StaticGroup{{ID: "finance", DisplayName: "Finance"}, {ID: "empty", DisplayName: "Nobody"}},
	},
}}

// countingDirectory counts expansions and can fail them.
type countingDirectory struct {
	mu      sync.Mutex
	expands int
	fail    error
	inner   directory.Directory
}

func (d *countingDirectory) Expand(ctx context.Context, tenant string, g models.ParticipantRef) ([]models.ParticipantRef, error) {
	d.mu.Lock()
	d.expands++
	fail := d.fail
	d.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return d.inner.Expand(ctx, tenant, g)
}

func (d *countingDirectory) Search(ctx context.Context, tenant, q string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error) {
	return d.inner.Search(ctx, tenant, q, typ, limit)
}

func (d *countingDirectory) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.expands
}

// newTestProjector projects into s with testDirectory and testForms under provider "files".
func newTestProjector(s store.Store, dir directory.Directory) *workflow.Projector {
	forms := map[string]formsource.Provider{"files": formsource.NewFileProvider(testForms())}
	return workflow.NewProjector(s, workflow.NewResolver(workflow.ResolverOptions{Directory: dir, Forms: forms}))
}

// requireFields fails unless err is a validation error with code listing every field.
func requireFields(t *testing.T, err error, code models.Code, fields ...string) {
	t.Helper()
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a validation error", err)
	}
	if ve.Code != code {
		t.Errorf("code = %s, want %s (fields %+v)", ve.Code, code, ve.Fields)
	}
	for _, f := range fields {
		found := false
		for _, got := range ve.Fields {
			found = found || got.Field == f
		}
		if !found {
			t.Errorf("fields = %+v, want one named %q", ve.Fields, f)
		}
	}
}

// mustJSON decodes a request body the way the runtime sends it.
func mustJSON(t *testing.T, body string) workflow.ProjectionRequest {
	t.Helper()
	var r workflow.ProjectionRequest
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// sameJSON reports whether two JSON documents are equal, whitespace and key order aside.
func sameJSON(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("got %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(a, b)
}

// pjNotes records change notifications.
type pjNotes struct {
	mu    sync.Mutex
	notes []string
}

func (n *pjNotes) Changed(tenant, taskID string, revision int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, fmt.Sprintf("%s/%s@%d", tenant, taskID, revision))
}

func (n *pjNotes) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.notes...)
}
