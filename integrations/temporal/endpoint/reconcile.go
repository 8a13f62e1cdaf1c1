package endpoint

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"usertasks/integrations/temporal/usertask"
)

const (
	defaultPage = 100
	maxPage     = 1000
)

// list answers GET …/user-task-bookmarks?tenant=&cursor=&limit= with the waiting steps of the
// running workflows, one page of Temporal's visibility listing at a time (the cursor is its
// page token).
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := defaultPage
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			h.refuse(w, http.StatusBadRequest, "bad-limit")
			return
		}
		limit = min(n, maxPage)
	}
	var token []byte
	if c := q.Get("cursor"); c != "" {
		var err error
		if token, err = base64.RawURLEncoding.DecodeString(c); err != nil {
			h.refuse(w, http.StatusBadRequest, "bad-cursor")
			return
		}
	}
	query := `ExecutionStatus = "Running"`
	if h.cfg.TaskQueue != "" {
		query += fmt.Sprintf(" AND TaskQueue = %q", h.cfg.TaskQueue)
	}
	resp, err := h.cfg.Temporal.ListWorkflow(r.Context(), &workflowservice.ListWorkflowExecutionsRequest{
		PageSize: int32(limit), NextPageToken: token, Query: query,
	})
	if err != nil {
		h.unavailable(w, "list", err)
		return
	}
	items := []usertask.Projection{}
	for _, e := range resp.GetExecutions() {
		fields := e.GetMemo().GetFields()
		keys := make([]string, 0, len(fields))
		for k := range fields {
			if strings.HasPrefix(k, usertask.MemoPrefix) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, err := memoProjection(fields[k])
			if err != nil || p == nil {
				h.cfg.Logger.Warn("usertasks endpoint: unreadable memo entry skipped", "key", k)
				continue
			}
			items = append(items, *p)
		}
	}
	next := ""
	if t := resp.GetNextPageToken(); len(t) > 0 {
		next = base64.RawURLEncoding.EncodeToString(t)
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": next})
}

// lookup answers GET …/user-task-bookmarks/{bookmarkId}: the projection while the step waits,
// the exact 404 bookmark-not-found when the run is gone or no longer waits on it, and a 503 when
// Temporal cannot tell (never the exact 404, which would finalize the task).
func (h *Handler) lookup(w http.ResponseWriter, r *http.Request, segment string) {
	id, err := url.PathUnescape(segment)
	if err != nil || strings.Contains(segment, "/") {
		h.refuse(w, http.StatusBadRequest, "bad-bookmark-id")
		return
	}
	workflowID, runID, step, err := usertask.ParseBookmarkID(id)
	if err != nil {
		// Not one of ours: this runtime never made it, so it does not exist here.
		writeJSON(w, http.StatusNotFound, map[string]string{"code": "bookmark-not-found"})
		return
	}
	p, err := h.waiting(r, workflowID, runID, step)
	switch {
	case err == errGone || (err == nil && p == nil):
		writeJSON(w, http.StatusNotFound, map[string]string{"code": "bookmark-not-found"})
	case err != nil:
		h.unavailable(w, "describe", err)
	default:
		writeJSON(w, http.StatusOK, p)
	}
}

// memoProjection decodes a memo entry; nil for an absent one.
func memoProjection(payload *commonpb.Payload) (*usertask.Projection, error) {
	if payload == nil {
		return nil, nil
	}
	var p usertask.Projection
	if err := converter.GetDefaultDataConverter().FromPayload(payload, &p); err != nil {
		return nil, err
	}
	if p.BookmarkID == "" {
		return nil, nil
	}
	return &p, nil
}
