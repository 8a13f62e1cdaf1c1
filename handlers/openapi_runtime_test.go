package handlers_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"usertasks/models"
	"usertasks/workflow"
)

// TestOpenAPIRuntimeWebhooks checks the document's outgoing runtime calls (SPEC 5.2, described
// as OpenAPI 3.1 webhooks) against what the workflow package really sends and accepts.
func TestOpenAPIRuntimeWebhooks(t *testing.T) {
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		t.Fatal(err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	hooks := model.Model.Webhooks
	var names []string
	for name := range hooks.KeysFromOldest() {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"getUserTaskBookmark", "listUserTaskBookmarks", "userTaskStimulus"}; !slices.Equal(names, want) {
		t.Fatalf("webhooks %v, want %v", names, want)
	}
	validator := schema_validation.NewSchemaValidator(config.WithFormatAssertions())
	check := func(t *testing.T, name string, schema *base.SchemaProxy, body []byte, valid bool) {
		t.Helper()
		if schema == nil {
			t.Fatalf("%s: no schema", name)
		}
		ok, errs := validator.ValidateSchemaBytes(schema.Schema(), body)
		if ok != valid {
			t.Fatalf("%s: %s valid = %v, want %v (%v)", name, body, ok, valid, errs)
		}
	}
	response := func(t *testing.T, op *v3.Operation, code string) *base.SchemaProxy {
		t.Helper()
		r := op.Responses.Codes.GetOrZero(code)
		if r == nil {
			t.Fatalf("%s has no %s answer", op.OperationId, code)
		}
		return r.Content.GetOrZero("application/json").Schema
	}
	for name, item := range hooks.FromOldest() {
		for _, op := range []*v3.Operation{item.Get, item.Post} {
			if op != nil && (op.Security == nil || len(op.Security) != 0) {
				t.Errorf("%s: the outgoing call carries no bearer token; want security []", name)
			}
		}
	}

	t.Run("BookmarkNotFound", func(t *testing.T) {
		schema := response(t, hooks.GetOrZero("getUserTaskBookmark").Get, "404")
		check(t, "404", schema, []byte(`{"code":"bookmark-not-found"}`), true)
		for _, body := range []string{`{"code":"route-not-found"}`, `{}`, `"bookmark-not-found"`} {
			check(t, "404", schema, []byte(body), false)
		}
	})
	t.Run("Stimulus", func(t *testing.T) {
		schema := hooks.GetOrZero("userTaskStimulus").Post.RequestBody.Content.GetOrZero("application/json").Schema
		task := models.Task{ID: "task-1", Tenant: "t1", Workflow: models.WorkflowLink{BookmarkID: "proc/1", InstanceID: "wf"}}
		ann := &models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "ann", DisplayName: "Ann"}
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		for _, op := range []models.Operation{
			{OperationID: "op", Kind: models.OpComplete, ActionKey: "Approve", Actor: ann, Payload: json.RawMessage(`{"a":1}`), CreatedAt: at},
			{OperationID: "op", Kind: models.OpTimeout, CreatedAt: at},
			{OperationID: "op", Kind: models.OpCancel, Actor: ann, Reason: "obsolete", CreatedAt: at},
		} {
			s, err := workflow.NewStimulus(task, op)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := json.Marshal(s)
			check(t, string(op.Kind), schema, body, true)
		}
		check(t, "without completedAt", schema, []byte(`{"tenant":"t1","taskId":"x","bookmarkId":"b","workflowInstanceId":"w","operationId":"o","actionKey":"Timeout","completedBy":null}`), false)
	})
	t.Run("BookmarkPage", func(t *testing.T) {
		schema := response(t, hooks.GetOrZero("listUserTaskBookmarks").Get, "200")
		check(t, "page", schema, []byte(`{"items":[{"workflowDefinitionId":"d","workflowInstanceId":"w","activityInstanceId":"a","bookmarkId":"proc/1","task":{"title":"T"}}],"nextCursor":""}`), true)
		check(t, "page", schema, []byte(`{"items":[]}`), false)
	})
}
