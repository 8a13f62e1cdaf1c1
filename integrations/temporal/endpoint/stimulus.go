package endpoint

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"usertasks/integrations/temporal/usertask"
)

// maxStimulus bounds a stimulus body; the decision's data is the only large part.
const maxStimulus = 4 << 20

// stimulus passes a decision to the waiting step. Every answer but a 5xx acknowledges, so a
// stimulus for a step that no longer waits (a duplicate delivery, a workflow that ended) is
// acknowledged without a signal: the Idempotency-Key's delivery happened once.
func (h *Handler) stimulus(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxStimulus+1))
	if err != nil {
		h.refuse(w, http.StatusBadRequest, "unreadable-body")
		return
	}
	if !h.validSignature(r, body) {
		h.refuse(w, http.StatusUnauthorized, "bad-signature")
		return
	}
	if len(body) > maxStimulus {
		h.refuse(w, http.StatusRequestEntityTooLarge, "too-large")
		return
	}
	var s usertask.Stimulus
	if err := json.Unmarshal(body, &s); err != nil {
		h.refuse(w, http.StatusBadRequest, "bad-stimulus")
		return
	}
	if s.Tenant != h.cfg.Tenant {
		h.refuse(w, http.StatusUnprocessableEntity, "tenant-not-served")
		return
	}
	workflowID, _, _, err := usertask.ParseBookmarkID(s.BookmarkID)
	if err != nil || workflowID != s.WorkflowInstanceID {
		h.refuse(w, http.StatusUnprocessableEntity, "unknown-bookmark")
		return
	}
	s.IdempotencyKey = r.Header.Get("Idempotency-Key")
	if s.IdempotencyKey != "" {
		if !h.keys.claim(s.IdempotencyKey) {
			h.duplicates.Add(1)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if !h.signal(w, r, s) && s.IdempotencyKey != "" {
		h.keys.release(s.IdempotencyKey)
	}
}

// signal passes the stimulus on to its waiting step; it reports whether the delivery is done
// (signalled, or nothing left to signal), false when User Tasks must retry.
func (h *Handler) signal(w http.ResponseWriter, r *http.Request, s usertask.Stimulus) bool {
	workflowID, runID, step, _ := usertask.ParseBookmarkID(s.BookmarkID)

	waiting, err := h.waiting(r, workflowID, runID, step)
	switch {
	case errors.Is(err, errGone):
		h.gone.Add(1)
		w.WriteHeader(http.StatusNoContent)
		return true
	case err != nil:
		h.unavailable(w, "describe", err)
		return false
	case waiting == nil:
		h.duplicates.Add(1)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	if err := h.cfg.Temporal.SignalWorkflow(r.Context(), workflowID, runID, usertask.SignalName(step), s); err != nil {
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) { // it closed between the two calls
			h.gone.Add(1)
			w.WriteHeader(http.StatusNoContent)
			return true
		}
		h.unavailable(w, "signal", err)
		return false
	}
	h.signalled.Add(1)
	w.WriteHeader(http.StatusNoContent)
	return true
}

// errGone: the workflow run does not exist or has closed.
var errGone = errors.New("workflow run gone")

// waiting returns the step's projection while the run waits on it, nil when the run is open but
// no longer waits on the step, or errGone.
func (h *Handler) waiting(r *http.Request, workflowID, runID, step string) (*usertask.Projection, error) {
	d, err := h.cfg.Temporal.DescribeWorkflowExecution(r.Context(), workflowID, runID)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil, errGone
	}
	if err != nil {
		return nil, err
	}
	info := d.GetWorkflowExecutionInfo()
	if info.GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return nil, errGone
	}
	return memoProjection(info.GetMemo().GetFields()[usertask.MemoKey(step)])
}
