package storekit

import (
	"encoding/json"
	"time"

	"usertasks/models"
)

// Comments (SPEC 10.1) as both stores keep them: one row per comment in user_task_comments,
// the text and mentions sealed together in body_enc, the author and times in the clear (the
// list shows them for a deleted comment too).

// CommentTable holds the comments; ColCommentBody is their sealed column.
const (
	CommentTable   = "user_task_comments"
	ColCommentBody = "body_enc"
)

// CommentSealID is the row part of a comment body's associated data: tenant, task and comment
// id (SealedTable.SealRow with the comments' Scope), so a sealed body copied to another
// comment, task or tenant does not open.
func CommentSealID(tenant, taskID, commentID string) string {
	return tenant + sealScopeSep + taskID + sealScopeSep + commentID
}

// sealScopeSep joins the parts of a scoped row's associated data: a control character, which
// no identifier contains, so two different triples never join alike.
const sealScopeSep = "\x1f"

// CommentRow is a comment as stored. BodyEnc is NULL once the comment is deleted.
type CommentRow struct {
	ID             string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID       string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID         string     `gorm:"column:task_id" bson:"task_id"`
	AuthorProvider string     `gorm:"column:author_provider" bson:"author_provider"`
	AuthorType     string     `gorm:"column:author_type" bson:"author_type"`
	AuthorID       string     `gorm:"column:author_id" bson:"author_id"`
	AuthorDisplay  *string    `gorm:"column:author_display" bson:"author_display"`
	BodyEnc        *string    `gorm:"column:body_enc" bson:"body_enc"`
	CreatedAt      time.Time  `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	DeletedAt      *time.Time `gorm:"column:deleted_at" bson:"deleted_at"`
}

// commentBody is what body_enc seals: the text and the mentions it resolved to.
type commentBody struct {
	Text     string           `json:"text"`
	Mentions []commentMention `json:"mentions,omitempty"`
}

type commentMention struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
}

// CheckComment refuses a comment the stored fields cannot hold; models.AddComment decides
// the same first.
func CheckComment(cm *models.Comment) error {
	a := cm.Author
	if cm.ID == "" || len(cm.ID) > 36 || cm.Tenant == "" || cm.TaskID == "" || a.ID == "" || a.Provider == "" || a.Type != models.UserParticipant ||
		len(a.ID) > models.MaxParticipantIDLength || len(a.Provider) > models.MaxProviderLength || models.TextProblem(cm.ID, models.Identifier) != "" {
		return models.InvalidField("comment", "is not a storable comment")
	}
	if msg := models.CommentTextProblem(cm.Text); msg != "" {
		return models.InvalidField("text", msg)
	}
	return nil
}

// CommentRow encodes cm (checked with CheckComment), its text and mentions sealed.
func (c Codec) CommentRow(cm *models.Comment) (CommentRow, error) {
	if err := CheckComment(cm); err != nil {
		return CommentRow{}, err
	}
	body := commentBody{Text: cm.Text}
	for _, m := range cm.Mentions {
		body.Mentions = append(body.Mentions, commentMention{Provider: m.Provider, ID: m.ID})
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return CommentRow{}, err
	}
	env, err := c.Seal(CommentSealID(cm.Tenant, cm.TaskID, cm.ID), ColCommentBody, raw)
	if err != nil {
		return CommentRow{}, err
	}
	a := cm.Author
	return CommentRow{
		ID: cm.ID, TenantID: cm.Tenant, TaskID: cm.TaskID, AuthorProvider: a.Provider, AuthorType: string(a.Type), AuthorID: a.ID,
		AuthorDisplay: SavedViewOwnerDisplay(a), BodyEnc: env, CreatedAt: c.Time(cm.CreatedAt), DeletedAt: c.TimePtr(cm.DeletedAt),
	}, nil
}

// CommentMeta decodes r without its body: what a deletion decides on, so that a manager can
// erase a comment whose body no configured key opens.
func (c Codec) CommentMeta(r *CommentRow) models.Comment {
	return models.Comment{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID,
		Author: models.ParticipantRef{Tenant: r.TenantID, Provider: r.AuthorProvider, Type: models.ParticipantType(r.AuthorType),
			ID: r.AuthorID, DisplayName: Str(r.AuthorDisplay)},
		CreatedAt: c.Time(r.CreatedAt), DeletedAt: c.TimePtr(r.DeletedAt),
	}
}

// Comment decodes r, opening its body; a body that does not open or decode is a
// models.CorruptError naming the task.
func (c Codec) Comment(r *CommentRow) (models.Comment, error) {
	cm := c.CommentMeta(r)
	if r.DeletedAt != nil {
		return cm, nil
	}
	plain, err := c.Open(r.TaskID, CommentSealID(r.TenantID, r.TaskID, r.ID), ColCommentBody, r.BodyEnc)
	if err != nil {
		return models.Comment{}, err
	}
	var body commentBody
	if err := json.Unmarshal(plain, &body); err != nil || body.Text == "" {
		return models.Comment{}, &models.CorruptError{TaskID: r.TaskID, Reason: "comment " + r.ID + " does not decode"}
	}
	cm.Text = body.Text
	for _, m := range body.Mentions {
		cm.Mentions = append(cm.Mentions, models.ParticipantRef{Tenant: r.TenantID, Provider: m.Provider, Type: models.UserParticipant, ID: m.ID})
	}
	return cm, nil
}

// CommentNotifications are the rows a new comment causes, written in its transaction:
// mentioned to each user it mentions, and comment-added to the assignee when someone else
// commented and did not mention them already — never to the author, an excluded user or a
// guest. seq, the comment-added event's sequence number, completes each row's key in place of
// the revision (a comment does not raise it), so every comment notifies once. Whether a
// mentioned user may read the task is decided at delivery (the read policy needs the
// directory): one who may not is dropped there and sees nothing.
func CommentNotifications(t *models.Task, cm *models.Comment, seq int, now time.Time) []models.Notification {
	author := cm.Author
	var out []models.Notification
	told := map[string]bool{}
	add := func(trigger models.NotificationTrigger, to models.ParticipantRef) {
		to.Tenant = t.Tenant
		if to.Type != models.UserParticipant || told[to.Key()] || !Notifiable(t, to) || author.Same(to) {
			return
		}
		told[to.Key()] = true
		out = append(out, NewNotification(t, trigger, int64(seq), to, &author, now))
	}
	for _, m := range cm.Mentions {
		add(models.TriggerMentioned, m)
	}
	if a := t.Assignee; a != nil {
		add(models.TriggerCommentAdded, *a)
	}
	return out
}
