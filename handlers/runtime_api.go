package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/workflow"
)

// RuntimeProjector materializes bookmarks; *workflow.Projector satisfies it.
type RuntimeProjector interface {
	Project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (models.Task, bool, error)
}

// RuntimeFinalizer finalizes removed bookmarks; *workflow.Finalizer satisfies it.
type RuntimeFinalizer interface {
	Removed(ctx context.Context, tenant string, bookmarkIDs []string) (finalized, unknown []string, err error)
}

// runtimeAPI holds the handlers of the workflow runtime protocol (SPEC 5.2). The tenant is the
// runtime token's, never the body's.
type runtimeAPI struct {
	projector RuntimeProjector
	finalizer RuntimeFinalizer
}

// RegisterRuntime registers the runtime protocol on g, the /api/v1/runtime group:
//
//	POST /bookmarks          project one committed bookmark   → 201 / 200
//	POST /bookmarks/removed  finalize removed bookmarks        → 200
//
// Authentication is either the group's middleware or m, added to each route (as registerAPI
// does, so that unknown paths stay 404 and wrong methods 405). A request that reaches a handler
// without an actor is refused with 401.
func RegisterRuntime(g *echo.Group, p RuntimeProjector, f RuntimeFinalizer, m ...echo.MiddlewareFunc) {
	api := runtimeAPI{projector: p, finalizer: f}
	g.POST("/bookmarks", api.projectBookmark, m...)
	g.POST("/bookmarks/removed", api.removeBookmarks, m...)
}

// projectedJSON answers a projection.
type projectedJSON struct {
	TaskID   string        `json:"taskId"`
	Status   models.Status `json:"status"`
	Revision int           `json:"revision"`
	Created  bool          `json:"created"`
}

// projectBookmark handles POST /api/v1/runtime/bookmarks: 201 when the task was created, 200
// with the existing task on a repeat.
func (api runtimeAPI) projectBookmark(c echo.Context) error {
	a, err := runtimeActor(c)
	if err != nil {
		return err
	}
	req, err := parseProjection(c)
	if err != nil {
		return err
	}
	t, created, err := api.projector.Project(c.Request().Context(), a.Tenant, req)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, projectedJSON{TaskID: t.ID, Status: t.Status, Revision: t.Revision, Created: created})
}

// removedRequest is the body of bookmarks/removed.
type removedRequest struct {
	BookmarkIDs []string `json:"bookmarkIds"`
}

// removedJSON answers bookmarks/removed.
type removedJSON struct {
	Finalized []string `json:"finalized"`
	Unknown   []string `json:"unknown"`
}

// removeBookmarks handles POST /api/v1/runtime/bookmarks/removed.
func (api runtimeAPI) removeBookmarks(c echo.Context) error {
	a, err := runtimeActor(c)
	if err != nil {
		return err
	}
	var req removedRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.BookmarkIDs == nil {
		return models.InvalidField("bookmarkIds", "is required")
	}
	finalized, unknown, err := api.finalizer.Removed(c.Request().Context(), a.Tenant, req.BookmarkIDs)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, removedJSON{Finalized: idsOrEmpty(finalized), Unknown: idsOrEmpty(unknown)})
}

// runtimeActor is the 401/403 step of the runtime protocol: an authenticated caller holding
// user-tasks/runtime:write, decided before the body is read.
func runtimeActor(c echo.Context) (models.Actor, error) {
	a, ok := c.Get(actorKey).(models.Actor)
	if !ok || a.Tenant == "" {
		return models.Actor{}, models.ErrUnauthorized
	}
	if a.Guest != nil || !models.ActorCan(a, models.PermRuntimeWrite) {
		return models.Actor{}, models.ErrForbidden
	}
	return a, nil
}

// parseProjection reads a projection body strictly: over 1 MiB is 413, not one JSON object 400,
// a member the protocol does not define — at any depth — 422 validation-failed naming it by its
// path ("task.candidateUsers[0].email"), a member of the wrong type 422 as well.
func parseProjection(c echo.Context) (workflow.ProjectionRequest, error) {
	var req workflow.ProjectionRequest
	raw, err := readBody(c)
	if err != nil {
		return req, err
	}
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&members); err != nil || members == nil || dec.More() {
		return req, malformed("the body must be one JSON object")
	}
	if unknown := unknownNestedMembers(raw, reflect.TypeFor[workflow.ProjectionRequest](), ""); len(unknown) > 0 {
		slices.SortFunc(unknown, func(a, b models.FieldError) int { return strings.Compare(a.Field, b.Field) })
		return req, models.Invalid(models.CodeValidationFailed, unknown...)
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// Field is the member's dotted path from the body ("task.priority"); array
			// indexes are not part of it.
			return req, models.InvalidField(te.Field, "must be "+jsonKind(te.Type))
		}
		return req, malformed("the body could not be decoded")
	}
	return req, nil
}

var jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// unknownNestedMembers lists the members of raw that the Go type t does not declare, following
// structs, pointers and slices. Values that do not decode are left to json.Unmarshal, which
// reports them; types with their own decoding (json.RawMessage, custom unmarshalers) are opaque.
func unknownNestedMembers(raw json.RawMessage, t reflect.Type, path string) []models.FieldError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		return nil
	}
	var out []models.FieldError
	switch t.Kind() {
	case reflect.Struct:
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return nil
		}
		fields := memberTypes(t)
		for name, value := range members {
			member := name
			if path != "" {
				member = path + "." + name
			}
			ft, ok := fields[name]
			if !ok {
				out = append(out, models.FieldError{Field: member, Message: "is not a known field"})
				continue
			}
			out = append(out, unknownNestedMembers(value, ft, member)...)
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for i, item := range items {
			out = append(out, unknownNestedMembers(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

// idsOrEmpty makes an absent list an empty JSON array.
func idsOrEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
