package handlers

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"usertasks/attachments"
	"usertasks/models"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The Activity section's "Upload file" form (POST /tasks/:id/attachments, multipart). The file
// streams to the store one chunk at a time as on the API (api_attachments.go): the body is
// never parsed whole, so the CSRF check cannot use the form parser (it would buffer the file).
// The form puts its hidden fields before the file; the handler reads those small parts first,
// checks the token and only then reads the file.

// webAttachmentsRoute is the upload form's route, which the 1 MiB body limit lets through.
const webAttachmentsRoute = "/tasks/:id/attachments"

// maxUploadField bounds one hidden field of the upload form (the token, the revision, the id).
const maxUploadField = 512

// uploadDrainLimit bounds what a refused upload still reads of the body so the browser sees
// the page rather than a reset connection; a larger rest is left (the connection closes).
const uploadDrainLimit = 16 << 20

// uploadTaskFile handles POST /tasks/:id/attachments. It runs without RequireCSRF (see above)
// and checks origin and token itself before it reads a byte of the file.
func (w *web) uploadTaskFile(c echo.Context) error {
	req, res := c.Request(), c.Response()
	id := c.Param("id")
	req.Body = http.MaxBytesReader(res, req.Body, w.attachments.MaxSize()+multipartOverhead)
	mr, err := uploadReader(req)
	if err != nil {
		return errBadForm
	}
	fields, part, err := uploadFields(mr)
	s, signedIn := w.sessions.Current(req)
	// The token decides before anything else is said about the request.
	if !signedIn || !w.sessions.CheckCSRF(req, &s, fields[views.CSRFField], false) {
		return errCSRF
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return w.uploadAnswer(c, id, models.AttachmentTooLarge(w.attachments.MaxSize()))
	case err != nil:
		return errBadForm
	}
	if rev, err := strconv.Atoi(fields["expectedRevision"]); err != nil || rev < 1 {
		return errBadForm
	}
	if part == nil || part.FileName() == "" {
		// A browser sends an empty, unnamed part when no file was chosen.
		return w.uploadAnswer(c, id, errNoFile)
	}
	deadlines := newUploadDeadlines(req, res)
	a := webActor(c)
	_, err = w.attachments.Upload(req.Context(), a, id, attachments.UploadInput{
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
	if errors.As(err, &tooLarge) {
		err = models.AttachmentTooLarge(w.attachments.MaxSize())
	}
	switch {
	case err == nil:
		w.announce(a.Tenant, id, activityAttachment)
	case stalled(err):
		// The client stopped sending: nothing to drain, and no page it would read.
		deadlines.answer()
		return errBadForm
	case !errors.As(err, &tooLarge):
		// Read the rest (bounded) so the browser reads the page with the message.
		deadlines.chunk()
		_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, uploadDrainLimit))
	}
	deadlines.answer()
	return w.uploadAnswer(c, id, err)
}

// errNoFile: the upload form was sent without a file.
var errNoFile = models.InvalidField("file", "no file")

// uploadAnswer finishes an upload as every Activity post (activityAnswer).
func (w *web) uploadAnswer(c echo.Context, id string, err error) error {
	noFile := errors.Is(err, errNoFile)
	return w.activityAnswer(c, id, err, flashAttached, func(t *i18n.Catalog, ve *models.ValidationError) taskState {
		msg := activityRefusal(t, t.Activity.FileLabel, w.attachments.MaxSize(), ve)
		if noFile {
			msg = t.Activity.NoFile
		}
		return taskState{activity: &activityState{upload: msg}}
	})
}

// uploadReader opens a multipart/form-data body.
func uploadReader(req *http.Request) (*multipart.Reader, error) {
	mediaType, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return nil, errNotMultipart
	}
	return multipart.NewReader(req.Body, params["boundary"]), nil
}

// uploadFields reads the hidden fields before the part named file, each at most maxUploadField
// bytes, and returns them with the file's part (nil when the body ends first). A field that
// repeats, is too long, or is not one of the form's is errBadForm.
func uploadFields(mr *multipart.Reader) (map[string]string, *multipart.Part, error) {
	fields := map[string]string{}
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return fields, nil, nil
		}
		if err != nil {
			return fields, nil, err
		}
		name := p.FormName()
		if name == "file" {
			return fields, p, nil
		}
		switch name {
		case views.CSRFField, "expectedRevision", "operationId":
		default:
			return fields, nil, errBadForm
		}
		if _, seen := fields[name]; seen || p.FileName() != "" {
			return fields, nil, errBadForm
		}
		b, err := io.ReadAll(io.LimitReader(p, maxUploadField+1))
		if err != nil {
			return fields, nil, err
		}
		if len(b) > maxUploadField {
			return fields, nil, errBadForm
		}
		fields[name] = strings.TrimSpace(string(b))
	}
}
