package store

import (
	"context"
	"time"

	"usertasks/models"
)

// Attachments keeps the files on tasks (SPEC 10.2) in the store itself, as chunks of at most
// models.AttachmentChunkSize plain bytes, each sealed with the key ring (AAD bound to tenant,
// task, attachment id and chunk index), so backup, purge and key rotation cover them. The file
// name is sealed too.
//
// An upload is three steps, each a short transaction, so a slow client holds no transaction
// open and a crash leaves nothing visible: BeginAttachment writes an unfinished row, one
// PutAttachmentChunk per chunk, and FinishAttachment checks the task (open, fewer than
// models.MaxAttachmentsPerTask) and records size, SHA-256 and the chunk count with the event
// attachment-added, all in one write. Only a finished attachment is listed or read; an
// unfinished one older than a bound is swept with its chunks.
//
// Every method is scoped by tenant and task: another tenant's or another task's attachment is
// models.ErrNotFound. Who may upload, read or delete is the service's (SPEC 10.1 readers),
// except the rules models decides in the writes (models.AttachmentAdded,
// models.AttachmentDeleted).
type Attachments interface {
	// BeginAttachment stores an unfinished upload of att (Tenant, TaskID, FileName checked by
	// models.AttachmentFileName, UploadedBy) under a new id at the store's clock and returns
	// it. A missing task is models.ErrNotFound; a task that is not open refuses as
	// models.AttachmentAdded would, so a doomed upload stores nothing.
	BeginAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error)
	// PutAttachmentChunk seals data (1 to models.AttachmentChunkSize bytes) as chunk seq of
	// the unfinished upload id. An unknown, finished or swept upload is models.ErrNotFound; a
	// seq written already is a models.ErrConflict.
	PutAttachmentChunk(ctx context.Context, tenant, taskID, id string, seq int, data []byte) error
	// FinishAttachment finishes the upload att.ID with att.ContentType, Size, SHA256 (lower-case
	// hex) and Chunks: the chunks 0..Chunks-1 must be stored and hold Size bytes (else a
	// validation error naming file), the task must take it (models.AttachmentAdded), and the
	// row, its created time (the store's clock) and the event are written in one transaction.
	// It returns the attachment as listed.
	FinishAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error)
	// Attachments lists a task's finished attachments, oldest first (file names opened).
	Attachments(ctx context.Context, tenant, taskID string) ([]models.Attachment, error)
	// Attachment is one finished attachment.
	Attachment(ctx context.Context, tenant, taskID, id string) (models.Attachment, error)
	// ReadAttachment streams a finished attachment's bytes to each, one opened chunk at a time
	// in order, never holding more than one chunk; each's error stops it. A chunk that is
	// missing, does not open or has the wrong size, or bytes whose SHA-256 differs from the
	// recorded one, are a models.CorruptError naming the task — reported after the chunks
	// before it were handed out, so a caller streaming them must abort its answer.
	ReadAttachment(ctx context.Context, tenant, taskID, id string, each func(chunk []byte) error) (models.Attachment, error)
	// DeleteAttachment deletes a finished attachment with its chunks and writes the event
	// attachment-deleted, in one transaction, if models.AttachmentDeleted allows a; it returns
	// what was deleted.
	DeleteAttachment(ctx context.Context, a models.Actor, taskID, id string) (models.Attachment, error)
	// AbandonAttachment deletes the unfinished upload id of the task with its chunks, now: an
	// upload that fails after it began (a stall, a body over the limit, a second part) leaves
	// nothing stored, rather than chunks until the sweep. A finished attachment is never
	// touched; an unknown, finished, swept or another tenant's or task's upload is nothing to
	// do (nil).
	AbandonAttachment(ctx context.Context, tenant, taskID, id string) error
	// SweepAttachmentUploads deletes up to limit unfinished uploads started more than
	// olderThan ago (by the store's clock), with their chunks, and returns how many.
	SweepAttachmentUploads(ctx context.Context, olderThan time.Duration, limit int) (int, error)
}
