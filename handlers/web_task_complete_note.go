package handlers

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// flashCompleteRefused points the next task page at the note of a refused completion.
const flashCompleteRefused = "complete-refused"

// completeNote is a refused completion kept for the task page the POST redirects to: the
// values as posted, the revision the person saw and the messages (untranslated: the page puts
// them in its language), or that the task closed meanwhile.
//
// It lives on the server (websession.Manager.Keep, bound to the session, an hour at most);
// the flash cookie carries only its id, and the first task page that reads it shows it once.
// Only the form's own fields are kept, within maxKeptInput; the values of masked fields are
// sealed with the session keys, so the store never holds them in clear — and they are left
// out when they do not fit a seal.
type completeNote struct {
	TaskID   string              `json:"id"`
	Revision int                 `json:"r,omitempty"`
	Values   url.Values          `json:"in,omitempty"`
	Masked   string              `json:"m,omitempty"`
	Errors   []models.FieldError `json:"e,omitempty"`
	Code     models.Code         `json:"c,omitempty"`
	Conflict models.Code         `json:"x,omitempty"`
	// Closed: the task left its open states before the submission arrived; the page says
	// who completed it (or how it closed) instead of the form's messages.
	Closed bool `json:"closed,omitempty"`
}

const (
	// maxKeptInput bounds the plain values a note keeps, as much as a completion may carry;
	// the fields beyond it come back empty.
	maxKeptInput = models.MaxProtectedPayloadBytes
	// maxKeptErrors bounds the messages a note keeps (a form has at most this many fields
	// worth marking).
	maxKeptErrors = 200
	// maskedSealName names the seal of masked values (a seal is bound to its name).
	maskedSealName = "ut_complete_masked"
)

// keepInput keeps the posted values of the form's fields: plain ones as they are, masked ones
// sealed.
func (n *completeNote) keepInput(w *web, d *tasks.Detail, posted url.Values) {
	if d.Form == nil {
		return
	}
	plain, masked := url.Values{}, url.Values{}
	budget := maxKeptInput
	for _, fv := range d.Form.Fields {
		vs, ok := posted[fv.Key]
		if !ok || len(vs) == 0 {
			continue
		}
		v := vs[0]
		if fv.Masked {
			if v != "" {
				masked.Set(fv.Key, v)
			}
			continue
		}
		if len(fv.Key)+len(v) > budget {
			continue
		}
		budget -= len(fv.Key) + len(v)
		plain.Set(fv.Key, v)
	}
	n.Values = plain
	if len(masked) > 0 {
		if sealed, err := w.sessions.Seal(maskedSealName, masked); err == nil {
			n.Masked = sealed
		}
	}
}

// keepCompleteNote keeps n on the server and points the next page at it.
func (w *web) keepCompleteNote(c echo.Context, n completeNote) error {
	d, ok := webSession(c)
	if !ok {
		return models.ErrUnauthorized
	}
	if len(n.Errors) > maxKeptErrors {
		n.Errors = n.Errors[:maxKeptErrors]
	}
	id, err := w.sessions.Keep(c.Request().Context(), d.Session, n)
	if err != nil {
		return err
	}
	w.setFlash(c, webFlash{Key: flashCompleteRefused, TaskID: n.TaskID, Note: id})
	return nil
}

// takeCompleteNote reads the refused completion the flash points at, if it is of task id.
// A note that is gone (expired, or of another session) is no message: the page shows the
// task as it is.
func (w *web) takeCompleteNote(c echo.Context, id string) (completeNote, bool) {
	f, ok := w.takeFlash(c)
	if !ok || f.Key != flashCompleteRefused || f.TaskID != id || f.Note == "" {
		return completeNote{}, false
	}
	d, ok := webSession(c)
	if !ok {
		return completeNote{}, false
	}
	var n completeNote
	if err := w.sessions.Kept(c.Request().Context(), d.Session, f.Note, &n); err != nil || n.TaskID != id {
		return completeNote{}, false
	}
	if n.Masked != "" {
		var masked url.Values
		if w.sessions.Unseal(maskedSealName, n.Masked, &masked) {
			if n.Values == nil {
				n.Values = url.Values{}
			}
			for k, vs := range masked {
				n.Values[k] = vs
			}
		}
		n.Masked = ""
	}
	return n, true
}

// state is what the task page shows of the note.
func (n completeNote) state() taskState {
	st := taskState{closedMeanwhile: n.Closed, conflictCode: n.Conflict}
	if !n.Closed {
		st.complete = &completeState{values: n.Values, revision: n.Revision, errors: n.Errors, code: n.Code}
	}
	return st
}
