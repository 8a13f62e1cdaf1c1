package handlers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/attachments"
	"usertasks/live"
	"usertasks/models"
)

// The attachments API (SPEC 10.2): files on a task for whoever may read its summary, never
// guests. The upload is the one request whose body may exceed 1 MiB: it streams, one chunk at
// a time, from the multipart reader to the store (never ParseMultipartForm).
//
//	POST   /api/v1/user-tasks/{id}/attachments                 201 the attachment
//	GET    /api/v1/user-tasks/{id}/attachments                 200 {items}: oldest first
//	GET    /api/v1/user-tasks/{id}/attachments/{attachmentId}  200 the bytes
//	DELETE /api/v1/user-tasks/{id}/attachments/{attachmentId}  204

// AttachmentService is what the API needs of the attachments; *attachments.Service satisfies it.
type AttachmentService interface {
	Upload(ctx context.Context, a models.Actor, taskID string, in attachments.UploadInput) (models.Attachment, error)
	List(ctx context.Context, a models.Actor, taskID string) ([]models.Attachment, error)
	Download(ctx context.Context, a models.Actor, taskID, id string, start func(models.Attachment) (io.Writer, error)) error
	Delete(ctx context.Context, a models.Actor, taskID, id string) error
	MaxSize() int64
}

// multipartOverhead is what an upload's body may hold beyond the file: the part headers and
// boundaries. A body over the file limit plus this is refused while it streams (413).
const multipartOverhead = 64 << 10

// attachmentsRoute is the upload's route, which the body limit lets through (router.go).
const attachmentsRoute = "/api/v1/user-tasks/:id/attachments"

type attachmentsAPI struct {
	svc  AttachmentService
	log  *slog.Logger // a download aborted after its first bytes is logged here
	live *live.Broker // nil: uploads and deletes are not announced
}

// registerAttachmentsAPI adds the attachment routes to the API group.
func registerAttachmentsAPI(v1 *echo.Group, svc AttachmentService, authed echo.MiddlewareFunc, log *slog.Logger, b *live.Broker) {
	if log == nil {
		log = slog.Default()
	}
	h := &attachmentsAPI{svc: svc, log: log, live: b}
	v1.POST("/user-tasks/:id/attachments", h.uploadAttachment, authed)
	v1.GET("/user-tasks/:id/attachments", h.listAttachments, authed)
	v1.GET("/user-tasks/:id/attachments/:attachmentId", h.downloadAttachment, authed)
	v1.DELETE("/user-tasks/:id/attachments/:attachmentId", h.deleteAttachment, authed)
}

// isAttachmentUpload reports the uploads the 1 MiB body limit skips (the API's and the task
// page's form); each bounds its own body (uploadAttachment, uploadTaskFile).
func isAttachmentUpload(c echo.Context) bool {
	return c.Request().Method == http.MethodPost && (c.Path() == attachmentsRoute || c.Path() == webAttachmentsRoute)
}

// attachmentJSON is an attachment on the wire.
type attachmentJSON struct {
	ID          string                  `json:"id"`
	FileName    string                  `json:"fileName"`
	ContentType string                  `json:"contentType"`
	Size        int64                   `json:"size"`
	SHA256      string                  `json:"sha256"`
	UploadedBy  *models.WireParticipant `json:"uploadedBy"`
	CreatedAt   string                  `json:"createdAt"`
}

func attachmentOf(a models.Attachment) attachmentJSON {
	return attachmentJSON{ID: a.ID, FileName: a.FileName, ContentType: a.ContentType, Size: a.Size, SHA256: a.SHA256,
		UploadedBy: a.UploadedBy.Wire(), CreatedAt: rfc3339(a.CreatedAt)}
}

// uploadAttachment handles POST /api/v1/user-tasks/:id/attachments: one multipart part named
// file, streamed.
func (h *attachmentsAPI) uploadAttachment(c echo.Context) error {
	req, res := c.Request(), c.Response()
	req.Body = http.MaxBytesReader(res, req.Body, h.svc.MaxSize()+multipartOverhead)
	part, mr, err := filePart(req)
	if err != nil {
		return uploadError(err)
	}
	deadlines := newUploadDeadlines(req, res)
	a := actorOf(c)
	att, err := h.svc.Upload(req.Context(), a, c.Param("id"), attachments.UploadInput{
		Name:        part.FileName(),
		Body:        part,
		BeforeChunk: deadlines.chunk,
		BeforeFinish: func() error {
			switch _, err := mr.NextPart(); {
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				return uploadError(err)
			}
			return models.InvalidField("file", "send exactly one part, named file")
		},
	})
	deadlines.answer()
	if err != nil {
		return uploadError(err)
	}
	announceActivity(h.live, a.Tenant, c.Param("id"), live.KindAttachment)
	return c.JSON(http.StatusCreated, attachmentOf(att))
}

// uploadError keeps a body over its bound a 413 and a body that is not multipart a 400.
func uploadError(err error) error {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return echo.ErrStatusRequestEntityTooLarge
	case errors.Is(err, errNotMultipart):
		return malformed("the body must be multipart/form-data with one part named file")
	case stalled(err):
		return errUploadStalled
	}
	return err
}

// listAttachments handles GET /api/v1/user-tasks/:id/attachments.
func (h *attachmentsAPI) listAttachments(c echo.Context) error {
	list, err := h.svc.List(c.Request().Context(), actorOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	out := struct {
		Items []attachmentJSON `json:"items"`
	}{Items: make([]attachmentJSON, 0, len(list))}
	for _, a := range list {
		out.Items = append(out.Items, attachmentOf(a))
	}
	return c.JSON(http.StatusOK, out)
}

// downloadAttachment handles GET /api/v1/user-tasks/:id/attachments/:attachmentId: the bytes
// with the stored type, as a download that no browser renders or sniffs.
func (h *attachmentsAPI) downloadAttachment(c echo.Context) error {
	res := c.Response()
	err := h.svc.Download(c.Request().Context(), actorOf(c), c.Param("id"), c.Param("attachmentId"), func(a models.Attachment) (io.Writer, error) {
		hd := res.Header()
		hd.Set(echo.HeaderContentType, a.ContentType)
		hd.Set(echo.HeaderContentLength, strconv.FormatInt(a.Size, 10))
		hd.Set(echo.HeaderContentDisposition, contentDisposition(a.FileName))
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "sandbox")
		hd.Set("Cache-Control", "private, no-store")
		res.WriteHeader(http.StatusOK)
		return res, nil
	})
	if err != nil && res.Committed {
		// The bytes began already (a chunk that does not open, a hash that differs): end the
		// connection without a clean end, so the client sees a failed download.
		logInternal(h.log, c, err)
		panic(http.ErrAbortHandler)
	}
	return err
}

// contentDisposition names the file for a download: an ASCII fallback and the UTF-8 name
// (RFC 6266, RFC 5987), never a character that could end the header.
func contentDisposition(name string) string {
	fallback := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == ';' || r == '%' {
			return '_'
		}
		return r
	}, name)
	return mime.FormatMediaType("attachment", map[string]string{"filename": fallback}) + "; filename*=UTF-8''" + extValue(name)
}

// extValue percent-encodes every byte of s outside RFC 5987's attr-char.
func extValue(s string) string {
	const attrChar = "!#$&+-.^_`|~"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(attrChar, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// deleteAttachment handles DELETE /api/v1/user-tasks/:id/attachments/:attachmentId.
func (h *attachmentsAPI) deleteAttachment(c echo.Context) error {
	a := actorOf(c)
	if err := h.svc.Delete(c.Request().Context(), a, c.Param("id"), c.Param("attachmentId")); err != nil {
		return err
	}
	announceActivity(h.live, a.Tenant, c.Param("id"), live.KindAttachment)
	return c.NoContent(http.StatusNoContent)
}
