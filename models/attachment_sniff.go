package models

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// The accepted attachment types (SPEC 10.2), decided from the bytes, never from the client.
const (
	TypePDF  = "application/pdf"
	TypePNG  = "image/png"
	TypeJPEG = "image/jpeg"
	TypeGIF  = "image/gif"
	TypeWebP = "image/webp"
	TypeText = "text/plain; charset=utf-8"
	TypeCSV  = "text/csv; charset=utf-8"
	TypeDOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	TypeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	TypePPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
)

// sniffHead is how much of the start of a file decides its type: enough for a ZIP's first
// entries (OOXML writers put [Content_Types].xml first) and for a CSV's first lines.
const sniffHead = 64 << 10

// ErrUnsupportedMedia refuses an attachment that is none of the accepted types; HTML, SVG
// and other markup are refused even when they are valid text.
var ErrUnsupportedMedia = Invalid(CodeUnsupportedMediaType, FieldError{Field: "file", Message: "the file is not PDF, PNG, JPEG, GIF, WebP, text, CSV or an Office Open XML document"})

// AttachmentTooLarge refuses an upload over limit bytes.
func AttachmentTooLarge(limit int64) error {
	return Invalid(CodePayloadTooLarge, FieldError{Field: "file", Message: fmt.Sprintf("the file is larger than %d bytes", limit)})
}

// AttachmentSniffer decides an upload's content type from its bytes as they stream through
// it: the type from the first sniffHead bytes, and, for text, that every byte up to the end is
// valid UTF-8 without NUL. It holds at most sniffHead bytes.
type AttachmentSniffer struct {
	head    []byte
	kind    string // decided type ("" until then)
	decided bool
	textOK  bool   // every byte so far is valid UTF-8 without NUL
	tail    []byte // an incomplete rune at the end of the last write
	size    int64
}

// NewAttachmentSniffer returns a sniffer that has seen nothing.
func NewAttachmentSniffer() *AttachmentSniffer { return &AttachmentSniffer{textOK: true} }

// Write looks at the next bytes; it fails with ErrUnsupportedMedia as soon as they decide
// the file is refused.
func (s *AttachmentSniffer) Write(p []byte) (int, error) {
	s.size += int64(len(p))
	s.checkText(p)
	if !s.decided {
		s.head = append(s.head, p[:min(len(p), sniffHead-len(s.head))]...)
		if len(s.head) == sniffHead {
			s.decide(false)
		}
	}
	if s.decided && (s.kind == "" || isText(s.kind) && !s.textOK) {
		return 0, ErrUnsupportedMedia
	}
	return len(p), nil
}

// Type is the decided type once every byte was written; ErrUnsupportedMedia when the file is
// none of the accepted types (an empty file included).
func (s *AttachmentSniffer) Type() (string, error) {
	if !s.decided {
		s.decide(true)
	}
	if len(s.tail) > 0 {
		s.textOK = false // the file ends inside a character
	}
	if s.kind == "" || isText(s.kind) && !s.textOK {
		return "", ErrUnsupportedMedia
	}
	return s.kind, nil
}

// SniffAttachment decides the type of a whole file read from r.
func SniffAttachment(r io.Reader) (string, error) {
	s := NewAttachmentSniffer()
	if _, err := io.Copy(s, r); err != nil {
		return "", err
	}
	return s.Type()
}

func isText(kind string) bool { return kind == TypeText || kind == TypeCSV }

// checkText keeps textOK: valid UTF-8 across write boundaries, no NUL.
func (s *AttachmentSniffer) checkText(p []byte) {
	if !s.textOK {
		return
	}
	if bytes.IndexByte(p, 0) >= 0 {
		s.textOK = false
		return
	}
	// Finish the character the last write ended inside.
	for len(s.tail) > 0 && len(p) > 0 {
		s.tail, p = append(s.tail, p[0]), p[1:]
		if utf8.FullRune(s.tail) {
			if r, n := utf8.DecodeRune(s.tail); r == utf8.RuneError && n <= 1 || n != len(s.tail) {
				s.textOK = false
				return
			}
			s.tail = s.tail[:0]
		}
	}
	// Keep a character cut by the end of this write for the next.
	cut := len(p)
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				cut = i
			}
			break
		}
	}
	if !utf8.Valid(p[:cut]) {
		s.textOK = false
		return
	}
	s.tail = append(s.tail, p[cut:]...)
}

// decide sets the type from the head; whole reports that the head is the entire file.
func (s *AttachmentSniffer) decide(whole bool) {
	s.decided = true
	h := s.head
	s.head = nil // the head is not needed any more
	switch {
	case len(h) == 0:
	case bytes.HasPrefix(h, []byte("%PDF-")):
		s.kind = TypePDF
	case bytes.HasPrefix(h, []byte("\x89PNG\r\n\x1a\n")):
		s.kind = TypePNG
	case bytes.HasPrefix(h, []byte("\xff\xd8\xff")):
		s.kind = TypeJPEG
	case bytes.HasPrefix(h, []byte("GIF87a")), bytes.HasPrefix(h, []byte("GIF89a")):
		s.kind = TypeGIF
	case len(h) >= 12 && bytes.Equal(h[:4], []byte("RIFF")) && bytes.Equal(h[8:12], []byte("WEBP")):
		s.kind = TypeWebP
	case bytes.HasPrefix(h, []byte("PK\x03\x04")):
		s.kind = ooxmlType(h)
	case s.textOK && !looksLikeMarkup(h):
		s.kind = TypeText
		if looksLikeCSV(h, whole) {
			s.kind = TypeCSV
		}
	}
}

// ooxmlType tells an Office Open XML document from any other ZIP by its local file headers:
// it has a [Content_Types].xml part, and its main part's folder names the kind. Anything else
// ("" ) is refused.
func ooxmlType(h []byte) string {
	sig := []byte("PK\x03\x04")
	types, kind := false, ""
	for i := 0; ; {
		j := bytes.Index(h[i:], sig)
		if j < 0 || i+j+30 > len(h) {
			break
		}
		at := i + j
		n := int(h[at+26]) | int(h[at+27])<<8
		if at+30+n > len(h) {
			break
		}
		name := string(h[at+30 : at+30+n])
		switch {
		case name == "[Content_Types].xml":
			types = true
		case kind == "" && len(name) > 5 && name[:5] == "word/":
			kind = TypeDOCX
		case kind == "" && len(name) > 3 && name[:3] == "xl/":
			kind = TypeXLSX
		case kind == "" && len(name) > 4 && name[:4] == "ppt/":
			kind = TypePPTX
		}
		i = at + 4
	}
	if !types {
		return ""
	}
	return kind
}

// markup is what makes text a document a browser would render or run: refused as text.
var markup = [][]byte{[]byte("<!doctype"), []byte("<html"), []byte("<script"), []byte("<svg"), []byte("<?xml"), []byte("<iframe"), []byte("<body"), []byte("<head")}

// looksLikeMarkup reports text that starts with a tag or holds a document tag in its head.
func looksLikeMarkup(h []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(h, []byte("\xef\xbb\xbf")), " \t\r\n\f")
	if len(t) > 0 && t[0] == '<' {
		return true
	}
	lower := bytes.ToLower(h)
	for _, m := range markup {
		if bytes.Contains(lower, m) {
			return true
		}
	}
	return false
}

// looksLikeCSV reports text whose first complete lines (two to ten) are records of the same
// number of comma-separated fields, at least two.
func looksLikeCSV(h []byte, whole bool) bool {
	if !whole {
		if i := bytes.LastIndexByte(h, '\n'); i >= 0 {
			h = h[:i+1]
		} else {
			return false
		}
	}
	r := csv.NewReader(bytes.NewReader(h))
	r.ReuseRecord = true
	fields, lines := 0, 0
	for lines < 10 {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || len(rec) < 2 || fields != 0 && len(rec) != fields {
			return false
		}
		fields = len(rec)
		lines++
	}
	return lines >= 2
}
