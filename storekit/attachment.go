package storekit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"usertasks/keyring"
	"usertasks/models"
)

// Attachments (SPEC 10.2) as both stores keep them: the rows, the sealing of the file name and
// of each chunk, and the one streaming read that checks every chunk and the SHA-256.

// The sealed columns of the attachment tables (the document store's fields of the same names).
const (
	ColFileName = "file_name_enc"
	ColChunk    = "chunk_enc"
)

// The attachment tables (the document store's collections of the same names).
const (
	AttachmentTable      = "user_task_attachments"
	AttachmentChunkTable = "user_task_attachment_chunks"
)

// AttachmentRow is an attachment as stored (user_task_attachments). CreatedAt is nil while the
// upload is unfinished; an unfinished row is never listed.
type AttachmentRow struct {
	ID               string     `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID         string     `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID           string     `gorm:"column:task_id" bson:"task_id"`
	FileNameEnc      string     `gorm:"column:file_name_enc" bson:"file_name_enc"`
	ContentType      *string    `gorm:"column:content_type" bson:"content_type"`
	SizeBytes        int64      `gorm:"column:size_bytes" bson:"size_bytes"`
	SHA256           *string    `gorm:"column:sha256" bson:"sha256"`
	Chunks           int        `gorm:"column:chunks" bson:"chunks"`
	UploaderProvider string     `gorm:"column:uploader_provider" bson:"uploader_provider"`
	UploaderType     string     `gorm:"column:uploader_type" bson:"uploader_type"`
	UploaderID       string     `gorm:"column:uploader_id" bson:"uploader_id"`
	UploaderDisplay  *string    `gorm:"column:uploader_display" bson:"uploader_display"`
	StartedAt        time.Time  `gorm:"column:started_at" bson:"started_at"`
	CreatedAt        *time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	// Slot is the document store's own: the finished attachment's place among its task's
	// models.MaxAttachmentsPerTask, unique per task, so the limit holds without a transaction.
	Slot string `gorm:"-" bson:"slot,omitempty"`
}

// AttachmentChunkRow is one sealed chunk (user_task_attachment_chunks); PlainSize is the
// bytes it opens to.
type AttachmentChunkRow struct {
	ID           string `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID     string `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID       string `gorm:"column:task_id" bson:"task_id"`
	AttachmentID string `gorm:"column:attachment_id" bson:"attachment_id"`
	Seq          int    `gorm:"column:seq" bson:"seq"`
	PlainSize    int    `gorm:"column:plain_size" bson:"plain_size"`
	ChunkEnc     []byte `gorm:"column:chunk_enc" bson:"chunk_enc"`
}

// ChunkID is the row key of chunk seq of attachment id: the id, a dot and the zero-padded
// index, so a walk by key visits an attachment's chunks in order.
func ChunkID(attachmentID string, seq int) string { return fmt.Sprintf("%s.%06d", attachmentID, seq) }

// attachmentAAD binds a sealed attachment value to its tenant, task, attachment, column and,
// for a chunk, its index: a value copied to another place does not open. JSON keeps the parts
// apart whatever characters they hold.
func attachmentAAD(tenant, taskID, id, column string, seq int) []byte {
	b, _ := json.Marshal([]any{tenant, taskID, id, column, seq})
	return b
}

// FileNameAAD and ChunkAAD are the associated data of an attachment's sealed values.
func FileNameAAD(tenant, taskID, id string) []byte {
	return attachmentAAD(tenant, taskID, id, ColFileName, -1)
}
func ChunkAAD(tenant, taskID, id string, seq int) []byte {
	return attachmentAAD(tenant, taskID, id, ColChunk, seq)
}

// AttachmentRowOf is a new unfinished upload's row, its file name sealed.
func (s Sealer) AttachmentRowOf(att *models.Attachment, startedAt time.Time) (AttachmentRow, error) {
	if att.ID == "" || att.Tenant == "" || att.TaskID == "" || att.UploadedBy.ID == "" {
		return AttachmentRow{}, errors.New("storekit: an attachment needs its id, tenant, task and uploader")
	}
	name, err := models.AttachmentFileName(att.FileName)
	if err != nil {
		return AttachmentRow{}, err
	}
	env, err := s.Keys.Seal([]byte(name), FileNameAAD(att.Tenant, att.TaskID, att.ID))
	if err != nil {
		return AttachmentRow{}, err
	}
	return AttachmentRow{
		ID: att.ID, TenantID: att.Tenant, TaskID: att.TaskID, FileNameEnc: env,
		UploaderProvider: att.UploadedBy.Provider, UploaderType: string(att.UploadedBy.Type), UploaderID: att.UploadedBy.ID,
		UploaderDisplay: SavedViewOwnerDisplay(att.UploadedBy), StartedAt: startedAt,
	}, nil
}

// Attachment decodes r, opening its file name; a name that does not open is a
// models.CorruptError naming the task.
func (c Codec) Attachment(r *AttachmentRow) (models.Attachment, error) {
	name, err := c.Sealer.Keys.Open(r.FileNameEnc, FileNameAAD(r.TenantID, r.TaskID, r.ID))
	if err != nil {
		if errors.Is(err, keyring.ErrUndecodable) {
			return models.Attachment{}, &models.CorruptError{TaskID: r.TaskID, Reason: "attachment " + r.ID + " file name does not decrypt"}
		}
		return models.Attachment{}, err
	}
	att := models.Attachment{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, FileName: string(name), ContentType: Str(r.ContentType),
		Size: r.SizeBytes, SHA256: Str(r.SHA256), Chunks: r.Chunks,
		UploadedBy: models.ParticipantRef{Tenant: r.TenantID, Provider: r.UploaderProvider, Type: models.ParticipantType(r.UploaderType),
			ID: r.UploaderID, DisplayName: Str(r.UploaderDisplay)},
	}
	if r.CreatedAt != nil {
		att.CreatedAt = c.Time(*r.CreatedAt)
	}
	return att, nil
}

// ChunkRowOf seals data as chunk seq of the upload r.
func (s Sealer) ChunkRowOf(r *AttachmentRow, seq int, data []byte) (AttachmentChunkRow, error) {
	if err := CheckChunk(seq, data); err != nil {
		return AttachmentChunkRow{}, err
	}
	env, err := s.Keys.Seal(data, ChunkAAD(r.TenantID, r.TaskID, r.ID, seq))
	if err != nil {
		return AttachmentChunkRow{}, err
	}
	return AttachmentChunkRow{ID: ChunkID(r.ID, seq), TenantID: r.TenantID, TaskID: r.TaskID, AttachmentID: r.ID,
		Seq: seq, PlainSize: len(data), ChunkEnc: []byte(env)}, nil
}

// CheckChunk refuses a chunk index or size the tables cannot hold.
func CheckChunk(seq int, data []byte) error {
	switch {
	case seq < 0 || seq >= MaxChunks:
		return models.InvalidField("file", "too many chunks")
	case len(data) == 0 || len(data) > models.AttachmentChunkSize:
		return models.InvalidField("file", "a chunk holds 1 byte to 1 MiB")
	}
	return nil
}

// MaxChunks bounds the chunks of one attachment (the six digits of ChunkID).
const MaxChunks = 999_999

// OpenChunk opens chunk r of attachment att: a chunk that does not open or whose size differs
// from the recorded one is a models.CorruptError naming the task.
func (s Sealer) OpenChunk(att models.Attachment, r *AttachmentChunkRow) ([]byte, error) {
	plain, err := s.Keys.Open(string(r.ChunkEnc), ChunkAAD(att.Tenant, att.TaskID, att.ID, r.Seq))
	switch {
	case errors.Is(err, keyring.ErrUndecodable):
		return nil, corruptChunk(att, r.Seq, "does not decrypt")
	case err != nil:
		return nil, err
	case len(plain) != r.PlainSize:
		return nil, corruptChunk(att, r.Seq, "has the wrong size")
	}
	return plain, nil
}

func corruptChunk(att models.Attachment, seq int, what string) error {
	return &models.CorruptError{TaskID: att.TaskID, Reason: "attachment " + att.ID + " chunk " + strconv.Itoa(seq) + " " + what}
}

// CheckFinish refuses to finish att unless its recorded shape is whole and agrees with the
// stored chunks: chunks rows numbered 0..Chunks-1 (maxSeq the highest) holding size bytes.
func CheckFinish(att models.Attachment, chunks int, maxSeq int, size int64) error {
	if !IsTokenHash(att.SHA256) { // the same shape: 64 lower-case hex digits
		return models.InvalidField("file", "the SHA-256 is not lower-case hex")
	}
	if att.ContentType == "" || len(att.ContentType) > 128 {
		return models.InvalidField("file", "the content type is missing")
	}
	if att.Chunks < 1 || chunks != att.Chunks || maxSeq != att.Chunks-1 || size != att.Size {
		return models.InvalidField("file", "the upload is incomplete")
	}
	return nil
}

// ReadChunks streams att's chunks through each in order: chunk(seq) reads one stored chunk,
// nil without an error when it is missing (its errors are returned as they are). A missing chunk, a chunk that
// does not open, bytes beyond the recorded size, or a SHA-256 that differs are a
// models.CorruptError naming the task, reported where found (after the chunks before it).
func (s Sealer) ReadChunks(att models.Attachment, chunk func(seq int) (*AttachmentChunkRow, error), each func([]byte) error) error {
	h := sha256.New()
	var total int64
	for seq := 0; seq < att.Chunks; seq++ {
		r, err := chunk(seq)
		if err != nil {
			return err
		}
		if r == nil {
			return corruptChunk(att, seq, "is missing")
		}
		plain, err := s.OpenChunk(att, r)
		if err != nil {
			return err
		}
		h.Write(plain)
		if total += int64(len(plain)); total > att.Size {
			return &models.CorruptError{TaskID: att.TaskID, Reason: "attachment " + att.ID + " holds more bytes than recorded"}
		}
		if err := each(plain); err != nil {
			return err
		}
	}
	if total != att.Size || hex.EncodeToString(h.Sum(nil)) != att.SHA256 {
		return &models.CorruptError{TaskID: att.TaskID, Reason: "attachment " + att.ID + " does not match its SHA-256"}
	}
	return nil
}
