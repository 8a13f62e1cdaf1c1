package handlers

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"usertasks/models"
)

// FuzzAttachmentFilePart feeds arbitrary bodies and boundaries to the upload's multipart
// reading: it never panics, answers only its documented refusals, and a part it accepts is
// the file part, readable to its end with the rest of the body checked for a second part.
func FuzzAttachmentFilePart(f *testing.F) {
	f.Add("XyZ", []byte("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.7\r\n--XyZ--\r\n"))
	f.Add("b", []byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''%C3%BC%00.txt\r\n\r\nhi\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"2\"\r\n\r\nx\r\n--b--\r\n"))
	f.Add("b", []byte("--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--b--\r\n"))
	f.Add("", []byte("not multipart"))
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		req, err := http.NewRequest(http.MethodPost, "/api/v1/user-tasks/x/attachments", bytes.NewReader(body))
		if err != nil {
			t.Skip()
		}
		req.Header.Set("Content-Type", "multipart/form-data; boundary=\""+strings.ReplaceAll(boundary, `"`, "")+"\"")
		part, mr, err := filePart(req)
		if err != nil {
			var ve *models.ValidationError
			if !errors.Is(err, errNotMultipart) && !(errors.As(err, &ve) && ve.Fields[0].Field == "file") {
				t.Fatalf("undocumented refusal %v", err)
			}
			return
		}
		if part.FormName() != "file" || part.FileName() == "" {
			t.Fatalf("accepted part %q named %q", part.FormName(), part.FileName())
		}
		if name, err := models.AttachmentFileName(part.FileName()); err == nil && strings.ContainsAny(name, "/\\\x00\r\n") {
			t.Fatalf("name %q passed the rule as %q", part.FileName(), name)
		}
		sniff := models.NewAttachmentSniffer()
		_, _ = io.Copy(sniff, part)
		_, _ = sniff.Type()
		_, _ = mr.NextPart()
	})
}
