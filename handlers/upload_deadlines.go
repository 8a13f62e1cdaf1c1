package handlers

import (
	"errors"
	"net/http"
	"os"
	"time"
)

// An upload may take longer than the server's read and write timeouts allow a whole request
// (USERTASKS_HTTP_READ_TIMEOUT, USERTASKS_HTTP_WRITE_TIMEOUT, both counted from the request's
// headers): a 10 MiB file on a slow line. So each chunk of the file (models.AttachmentChunkSize)
// gets the read timeout afresh — a client must send a chunk within it, and one that stalls
// longer is cut off with nothing stored — and the answer gets the write timeout afresh once the
// file is read, or it would be cut before its first byte. The timeouts are the serving
// http.Server's own, so what the operator configured holds per chunk.

// defaultUploadChunkTimeout is each chunk's read timeout when the server sets none (or the
// handler runs without one, under a recorder).
const defaultUploadChunkTimeout = time.Minute

// uploadDeadlines moves the connection's deadlines during one upload.
type uploadDeadlines struct {
	rc          *http.ResponseController
	read, write time.Duration
}

// newUploadDeadlines reads the timeouts of the server that serves req.
func newUploadDeadlines(req *http.Request, res http.ResponseWriter) uploadDeadlines {
	d := uploadDeadlines{rc: http.NewResponseController(res), read: defaultUploadChunkTimeout}
	if srv, ok := req.Context().Value(http.ServerContextKey).(*http.Server); ok && srv != nil {
		if srv.ReadTimeout > 0 {
			d.read = srv.ReadTimeout
		}
		d.write = srv.WriteTimeout
	}
	return d
}

// chunk gives the next chunk of the body the read timeout from now. A writer without a
// connection (a recorder) has no deadline to move.
func (d uploadDeadlines) chunk() { _ = d.rc.SetReadDeadline(time.Now().Add(d.read)) }

// answer gives the answer the write timeout from now (a server without one has no deadline).
func (d uploadDeadlines) answer() {
	if d.write > 0 {
		_ = d.rc.SetWriteDeadline(time.Now().Add(d.write))
	}
}

// stalled reports an upload whose next chunk did not arrive within the read timeout.
func stalled(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// errUploadStalled is the API's answer to a stalled upload: 400 malformed-request.
var errUploadStalled = malformed("the upload stalled: each 1 MiB of the file must arrive within the server's read timeout")
