package attachments_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"usertasks/attachments"
	"usertasks/models"
	"usertasks/testfactory"
)

// No plaintext of a file's bytes or name reaches the SQLite file or its WAL: both are sealed.
func TestNothingInPlainTextAtRest(t *testing.T) {
	f := newFixture(t, 0)
	marker := "IBAN-DE02-MARKER-" + models.NewID()
	body := append([]byte("Is this the right IBAN? "), bytes.Repeat([]byte(marker+"\n"), 20000)...) // text, > 1 chunk
	name := "Rechnung-" + models.NewID() + ".txt"
	att, err := f.upload(t, testfactory.Person("t1", "ann"), name, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if att.ContentType != models.TypeText {
		t.Fatalf("type %s", att.ContentType)
	}
	path := strings.TrimPrefix(testfactory.URL(t, f.s), "sqlite:")
	sawTitle := false // the scan reads what was written: the task's title is not sealed
	for _, file := range []string{path, path + "-wal"} {
		raw, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sawTitle = sawTitle || bytes.Contains(raw, []byte(f.task.Title))
		for _, secret := range []string{marker, name, "right IBAN"} {
			if bytes.Contains(raw, []byte(secret)) {
				t.Fatalf("%s holds %q in plain text", file, secret)
			}
		}
	}
	if !sawTitle {
		t.Fatalf("neither %s nor its WAL holds the task's title %q: the scan read nothing", path, f.task.Title)
	}
}

// liveHeap is the heap still reachable after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// sampledReader yields n bytes of a PDF without holding them, sampling the live heap as it goes.
type sampledReader struct {
	off, n int
	peak   *uint64
}

func (r *sampledReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	if h := liveHeap(); h > *r.peak {
		*r.peak = h
	}
	k := min(len(p), r.n-r.off)
	for i := range k {
		p[i] = 'x'
	}
	if r.off == 0 {
		copy(p, "%PDF-1.7\n")
	}
	r.off += k
	return k, nil
}

type sampledWriter struct {
	n    int
	peak *uint64
}

func (w *sampledWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if h := liveHeap(); h > *w.peak {
		*w.peak = h
	}
	return len(p), nil
}

// A 10 MiB upload and download through the service keep the live heap flat: a few chunks,
// never the file.
func TestTenMiBKeepsTheHeapFlat(t *testing.T) {
	f := newFixture(t, 0)
	size := models.DefaultAttachmentMaxSize
	base := liveHeap()
	var up, down uint64
	att, err := f.svc.Upload(t.Context(), testfactory.Person("t1", "ann"), f.task.ID,
		attachments.UploadInput{Name: "big.pdf", Body: &sampledReader{n: size, peak: &up}})
	if err != nil || att.Size != int64(size) {
		t.Fatalf("upload %+v, %v", att, err)
	}
	w := &sampledWriter{peak: &down}
	if err := f.svc.Download(t.Context(), testfactory.Manager("t1", "boss"), f.task.ID, att.ID,
		func(models.Attachment) (io.Writer, error) { return w, nil }); err != nil || w.n != size {
		t.Fatalf("download %d bytes, %v", w.n, err)
	}
	const bound = 6 << 20
	for name, peak := range map[string]uint64{"upload": up, "download": down} {
		t.Logf("%s: live heap peak %+d bytes over the start", name, int64(peak)-int64(base))
		if peak > base && peak-base > bound {
			t.Errorf("%s grew the live heap by %d bytes for a %d-byte file", name, peak-base, size)
		}
	}
}
