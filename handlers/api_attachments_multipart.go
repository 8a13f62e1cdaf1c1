package handlers

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"usertasks/models"
)

// errNotMultipart: the upload's body is not multipart/form-data with a boundary (400).
var errNotMultipart = errors.New("handlers: the body is not multipart/form-data")

// filePart opens an upload's multipart body and its first part, which must be the file: named
// file, with a file name. A missing part is a validation error naming file; a body that is not
// multipart/form-data is errNotMultipart; a body over its bound is the reader's
// *http.MaxBytesError. The part is read as it streams, never buffered whole.
func filePart(req *http.Request) (*multipart.Part, *multipart.Reader, error) {
	mediaType, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return nil, nil, errNotMultipart
	}
	mr := multipart.NewReader(req.Body, params["boundary"])
	p, err := mr.NextPart()
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, nil, err
	case errors.Is(err, io.EOF):
		return nil, nil, models.InvalidField("file", "the part named file is missing")
	case err != nil:
		return nil, nil, errNotMultipart
	}
	if p.FormName() != "file" {
		return nil, nil, models.InvalidField("file", "the first part must be the file, named file")
	}
	if p.FileName() == "" {
		return nil, nil, models.InvalidField("file", "the file needs a name")
	}
	return p, mr, nil
}
