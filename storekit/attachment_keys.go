package storekit

import (
	"errors"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/store"
)

// Key rotation and audit of the attachment tables: their values are bound to tenant, task,
// attachment and chunk (FileNameAAD, ChunkAAD), not to a row key and column as the other
// sealed tables', and a chunk is up to 1 MiB, so both stores walk them in small pages.

// ChunkPage is the most chunks one page of a rotation or audit reads, whatever the caller
// asked: a page holds each chunk's envelope and plain bytes.
const ChunkPage = 8

// AttachmentPage is the most attachments one audit page checks (each read whole, one chunk
// at a time).
const AttachmentPage = 20

// TallyWith is Sealer.Tally for a value sealed with the associated data aad: counted under its
// key in page.ByKey, rowID named in page.Unreadable when it does not open; stale reports that
// it opens under another key than the primary, to plain.
func (s Sealer) TallyWith(page *store.KeyPage, rowID string, aad []byte, env string) (stale bool, plain []byte, err error) {
	if env == "" {
		return false, nil, nil
	}
	kid, _ := keyring.KeyID(env)
	page.ByKey[kid]++
	plain, err = s.Keys.Open(env, aad)
	switch {
	case errors.Is(err, keyring.ErrUndecodable):
		page.Unreadable = append(page.Unreadable, rowID)
		return false, nil, nil
	case err != nil:
		return false, nil, err
	}
	return kid != s.Keys.PrimaryKeyID(), plain, nil
}

// RekeyAttachmentRow looks at an attachment's sealed file name for a page of a rotation and
// returns the resealed envelope when it was under another key (reseal false: nothing to write).
func (s Sealer) RekeyAttachmentRow(page *store.KeyPage, r *AttachmentRow) (env string, reseal bool, err error) {
	aad := FileNameAAD(r.TenantID, r.TaskID, r.ID)
	stale, plain, err := s.TallyWith(page, r.ID, aad, r.FileNameEnc)
	if err != nil || !stale {
		return "", false, err
	}
	env, err = s.Keys.Seal(plain, aad)
	return env, err == nil, err
}

// RekeyChunkRow is RekeyAttachmentRow for one chunk.
func (s Sealer) RekeyChunkRow(page *store.KeyPage, r *AttachmentChunkRow) (env []byte, reseal bool, err error) {
	aad := ChunkAAD(r.TenantID, r.TaskID, r.AttachmentID, r.Seq)
	stale, plain, err := s.TallyWith(page, r.ID, aad, string(r.ChunkEnc))
	if err != nil || !stale {
		return nil, false, err
	}
	sealed, err := s.Keys.Seal(plain, aad)
	return []byte(sealed), err == nil, err
}

// AuditAttachment checks one attachment for the audit: its file name opens (counted in
// page.ByKey) and, when finished, every chunk opens and the bytes match the SHA-256 (read
// through ReadChunks). A failure names the attachment in page.Unreadable; only errors of the
// store itself are returned.
func (c Codec) AuditAttachment(page *store.KeyPage, r *AttachmentRow, chunk func(seq int) (*AttachmentChunkRow, error)) error {
	before := len(page.Unreadable)
	if _, _, err := c.Sealer.TallyWith(page, r.ID, FileNameAAD(r.TenantID, r.TaskID, r.ID), r.FileNameEnc); err != nil {
		return err
	}
	if len(page.Unreadable) > before || r.CreatedAt == nil {
		return nil // the name is named already; an unfinished upload has no hash yet
	}
	att, err := c.Attachment(r)
	if err != nil {
		return err
	}
	err = c.Sealer.ReadChunks(att, chunk, func([]byte) error { return nil })
	if errors.Is(err, models.ErrCorrupt) {
		page.Unreadable = append(page.Unreadable, r.ID)
		return nil
	}
	return err
}
