package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The task page's Activity section (SPEC 10.1, 10.2, issue 29 item 4): the task's comments and
// files in time order for whoever may read its summary, with plain forms to comment, upload
// and delete. Every post follows web_task_post.go's shape (PRG, 422 with the message next to
// the field, 409 with a banner). Downloads go to the JSON API's download route, which takes
// the session cookie and answers with the attachment headers (api_attachments.go).

// activityCommentLimit bounds the comments one page render reads: the store's limit per task.
const activityCommentLimit = 500

// activityPage is how many comments one store read returns (the service clamps to 200).
const activityPage = 200

// Flash keys of the Activity section's posts.
const (
	flashCommented       = "commented"
	flashAttached        = "attached"
	flashActivityDeleted = "activity-deleted"
)

// activityState is a refused Activity post: the comment as typed and the messages.
type activityState struct {
	text      string
	comment   string // next to the comment box
	upload    string // next to the file input
	deleteErr string // above the list
}

// activityFlash puts the Activity section's flashes in the page's language ("" for others).
func activityFlash(t *i18n.Catalog, key string) string {
	switch key {
	case flashCommented:
		return t.Activity.FlashCommented
	case flashAttached:
		return t.Activity.FlashAttached
	case flashActivityDeleted:
		return t.Activity.FlashDeleted
	}
	return ""
}

// activityHref is where a successful Activity post leads: the task, scrolled to the section.
func activityHref(id string) string { return taskHref(id) + "#activity-heading" }

// addActivity puts the Activity section on the task page of a reader of the task's summary.
// Guests and callers the service refuses get none: the section says nothing about them.
func (w *web) addActivity(c echo.Context, m *views.TaskPage, v tasks.TaskView, st taskState) error {
	ctx, a := c.Request().Context(), webActor(c)
	if a.Guest != nil {
		return nil
	}
	t := v.Task
	var comments []models.Comment
	var after *models.CommentCursor
	act := &views.Activity{}
	for {
		page, err := w.tasks.Comments(ctx, a, t.ID, after, activityPage)
		if errors.Is(err, models.ErrNotFound) || errors.Is(err, models.ErrForbidden) {
			return nil
		}
		if err != nil {
			return err
		}
		comments = append(comments, page.Items...)
		if page.Next == nil {
			break
		}
		if len(comments) >= activityCommentLimit {
			act.More = true
			break
		}
		after = page.Next
	}
	var files []models.Attachment
	if w.attachments != nil {
		list, err := w.attachments.List(ctx, a, t.ID)
		if err != nil && !errors.Is(err, models.ErrNotFound) {
			return err
		}
		files = list
		act.MaxSize = humanSize(m.T, w.attachments.MaxSize())
	}

	nm, err := w.taskNamer(ctx, a, m.T, t.ID, activityParticipants(comments, files))
	if err != nil {
		return err
	}
	now := w.now()
	subject := a.Subject
	subject.Tenant = a.Tenant
	cmd := func(path string) *views.Command {
		return &views.Command{Action: taskHref(t.ID) + path, Revision: t.Revision, OperationID: models.NewID()}
	}
	for _, cm := range comments {
		it := views.ActivityItem{ID: cm.ID, Author: nm.label(cm.Author), At: cm.CreatedAt, Comment: true, Deleted: cm.DeletedAt}
		if !cm.Deleted() {
			it.Text = views.ParseMarkdown(ctx, cm.Text)
			if v.Manager || (cm.Author.Same(subject) && now.Sub(cm.CreatedAt) <= models.CommentDeleteWindow) {
				it.Delete = cmd("/comments/" + url.PathEscape(cm.ID) + "/delete")
			}
		}
		act.Items = append(act.Items, it)
	}
	for _, f := range files {
		it := views.ActivityItem{ID: f.ID, Author: nm.label(f.UploadedBy), At: f.CreatedAt, FileName: f.FileName,
			ContentType: f.ContentType, Size: humanSize(m.T, f.Size),
			Download: "/api/v1/user-tasks/" + url.PathEscape(t.ID) + "/attachments/" + url.PathEscape(f.ID)}
		if v.Manager || models.MayDeleteAttachment(t, a, f, now) {
			it.Delete = cmd("/attachments/" + url.PathEscape(f.ID) + "/delete")
		}
		act.Items = append(act.Items, it)
	}
	// Time order across both kinds; the stable sort keeps each kind's own order on a tie.
	slices.SortStableFunc(act.Items, func(x, y views.ActivityItem) int { return x.At.Compare(y.At) })

	as := st.activity
	if as == nil {
		as = &activityState{}
	}
	act.Error = as.deleteErr
	act.Comment = &views.CommentForm{Command: *cmd("/comments"), Text: as.text, Error: as.comment}
	if w.attachments != nil && t.Status.IsOpen() {
		act.Upload = &views.UploadForm{Command: *cmd("/attachments"), Error: as.upload}
	}
	m.Activity = act
	return nil
}

// activityParticipants are the authors and uploaders to name.
func activityParticipants(comments []models.Comment, files []models.Attachment) []models.ParticipantRef {
	out := make([]models.ParticipantRef, 0, len(comments)+len(files))
	for _, c := range comments {
		out = append(out, c.Author)
	}
	for _, f := range files {
		out = append(out, f.UploadedBy)
	}
	return out
}

// addTaskComment handles POST /tasks/:id/comments.
func (w *web) addTaskComment(c echo.Context, id string, in tasks.Common) error {
	text := c.FormValue("text")
	a := webActor(c)
	_, err := w.tasks.AddComment(c.Request().Context(), a, id, tasks.CommentInput{Text: text, OperationID: in.OperationID})
	if err == nil {
		w.announce(a.Tenant, id, activityComment)
	}
	return w.activityAnswer(c, id, err, flashCommented, func(t *i18n.Catalog, ve *models.ValidationError) taskState {
		return taskState{activity: &activityState{text: text, comment: activityRefusal(t, t.Activity.CommentLabel, 0, ve)}}
	})
}

// deleteTaskComment handles POST /tasks/:id/comments/:commentId/delete.
func (w *web) deleteTaskComment(c echo.Context, id string, _ tasks.Common) error {
	a := webActor(c)
	_, err := w.tasks.DeleteComment(c.Request().Context(), a, id, c.Param("commentId"))
	if err == nil {
		w.announce(a.Tenant, id, activityComment)
	}
	return w.activityAnswer(c, id, err, flashActivityDeleted, func(t *i18n.Catalog, ve *models.ValidationError) taskState {
		return taskState{activity: &activityState{deleteErr: t.Problem(ve.Code)}}
	})
}

// deleteTaskAttachment handles POST /tasks/:id/attachments/:attachmentId/delete.
func (w *web) deleteTaskAttachment(c echo.Context, id string, _ tasks.Common) error {
	a := webActor(c)
	err := w.attachments.Delete(c.Request().Context(), a, id, c.Param("attachmentId"))
	if err == nil {
		w.announce(a.Tenant, id, activityAttachment)
	}
	return w.activityAnswer(c, id, err, flashActivityDeleted, func(t *i18n.Catalog, ve *models.ValidationError) taskState {
		return taskState{activity: &activityState{deleteErr: t.Problem(ve.Code)}}
	})
}

// activityAnswer finishes an Activity post: success → flash and 303 to the section; conflict
// → the page with a reload banner (409); a refused delete (403) → the page with the rule said
// above the list; validation → the page with the message next to the field (its status: 422,
// or 413/415 for an upload).
func (w *web) activityAnswer(c echo.Context, id string, err error, flashKey string, invalid func(*i18n.Catalog, *models.ValidationError) taskState) error {
	t := catalog(c)
	if err == nil {
		w.setFlash(c, webFlash{Key: flashKey, TaskID: id})
		return c.Redirect(http.StatusSeeOther, activityHref(id))
	}
	if msg, ok := conflictMessage(t, err); ok {
		return w.renderTask(c, id, taskState{status: http.StatusConflict, conflict: msg})
	}
	if errors.Is(err, models.ErrForbidden) {
		return w.renderTask(c, id, taskState{status: http.StatusForbidden, activity: &activityState{deleteErr: t.Activity.DeleteRefused}})
	}
	var ve *models.ValidationError
	if errors.As(err, &ve) {
		st := invalid(t, ve)
		st.status = http.StatusUnprocessableEntity
		switch ve.Code {
		case models.CodePayloadTooLarge:
			st.status = http.StatusRequestEntityTooLarge
		case models.CodeUnsupportedMediaType:
			st.status = http.StatusUnsupportedMediaType
		}
		return w.renderTask(c, id, st)
	}
	return err
}

// activityRefusal is a refused comment or file in the page's language.
func activityRefusal(t *i18n.Catalog, label string, limit int64, ve *models.ValidationError) string {
	switch ve.Code {
	case models.CodePayloadTooLarge:
		return t.Format(t.Activity.TooLarge, humanSize(t, limit))
	case models.CodeUnsupportedMediaType:
		return t.Activity.Unsupported
	}
	if len(ve.Fields) == 0 {
		return t.Problem(ve.Code)
	}
	// The first field's message: each form has one field.
	msg := ve.Fields[0].Message
	if words := t.Activity.Refusals[msg]; words != "" {
		return words
	}
	return sentence(label, t.FieldMessage(msg))
}

// humanSize says a size in bytes the way people read it, in symbols every language of the
// pages reads, with the language's decimal separator: "512 B", "1.5 KiB" ("1,5 KiB"), "10 MiB".
func humanSize(t *i18n.Catalog, n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	s := fmt.Sprintf("%.1f", float64(n)/float64(div))
	s = strings.Replace(strings.TrimSuffix(s, ".0"), ".", t.Total.Decimal, 1)
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB"}[exp]
}
