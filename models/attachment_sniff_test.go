package models

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
)

// zipOf builds a ZIP holding the named entries, in order.
func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range names {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("<x/>"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sniffInPieces writes b to a sniffer in pieces of n bytes (a chunk boundary anywhere).
func sniffInPieces(b []byte, n int) (string, error) {
	s := NewAttachmentSniffer()
	for len(b) > 0 {
		k := min(n, len(b))
		if _, err := s.Write(b[:k]); err != nil {
			return "", err
		}
		b = b[k:]
	}
	return s.Type()
}

func TestSniffAttachment(t *testing.T) {
	big := bytes.Repeat([]byte("Grüße 世界 — text\n"), 10000) // > sniffHead, runes across every boundary
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"PDF", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), TypePDF},
		{"PNG", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), TypePNG},
		{"JPEG", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), TypeJPEG},
		{"GIF", []byte("GIF89a\x01\x00\x01\x00"), TypeGIF},
		{"WebP", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), TypeWebP},
		{"Text", []byte("Is this the right IBAN?\r\n"), TypeText},
		{"OneByte", []byte("x"), TypeText},
		{"TextLarge", big, TypeText},
		{"CSV", []byte("name,iban\nAlice,DE02\nBob,DE03\n"), TypeCSV},
		{"CSVLarge", bytes.Repeat([]byte("a,b,c\n"), 20000), TypeCSV},
		{"DOCX", zipOf(t, "[Content_Types].xml", "_rels/.rels", "word/document.xml"), TypeDOCX},
		{"XLSX", zipOf(t, "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml"), TypeXLSX},
		{"PPTX", zipOf(t, "[Content_Types].xml", "ppt/presentation.xml"), TypePPTX},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{1, 3, 7, 4096, AttachmentChunkSize} {
				got, err := sniffInPieces(tc.in, n)
				if err != nil || got != tc.want {
					t.Fatalf("pieces of %d: got %q, %v; want %q", n, got, err, tc.want)
				}
			}
		})
	}
	lateNUL := append(bytes.Repeat([]byte("plain text "), 20000), 0)
	lateBad := append(bytes.Repeat([]byte("plain text "), 20000), 0xff, 'x')
	cutRune := append(bytes.Repeat([]byte("x"), 100), 0xe4, 0xb8) // ends inside a character
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"Empty", nil},
		{"HTML", []byte("<!DOCTYPE html><html><body>hi</body></html>")},
		{"HTMLLowerLeadingSpace", []byte("\n  <html><script>alert(1)</script>")},
		{"HTMLAfterText", []byte("Hello there\n<script>alert(1)</script>")},
		{"SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"SVGWithBOM", []byte("\xef\xbb\xbf<svg/>")},
		{"XML", []byte(`<?xml version="1.0"?><a/>`)},
		{"PlainZIP", zipOf(t, "readme.txt", "data.bin")},
		{"ZIPNamingWordOnly", zipOf(t, "word/document.xml")},
		{"ContentTypesButNoPart", zipOf(t, "[Content_Types].xml", "other/x.xml")},
		{"Binary", []byte{0x00, 0x01, 0x02, 0x03}},
		{"ELF", []byte("\x7fELF\x02\x01\x01\x00")},
		{"InvalidUTF8", []byte("caf\xe9")},
		{"NULLate", lateNUL},
		{"InvalidLate", lateBad},
		{"CutRune", cutRune},
		{"OverlongEncoding", []byte("a\xc0\xafb")},
	} {
		t.Run("Refuse"+tc.name, func(t *testing.T) {
			for _, n := range []int{1, 5, 4096, AttachmentChunkSize} {
				if got, err := sniffInPieces(tc.in, n); !errors.Is(err, ErrInvalid) || ErrorCode(err) != CodeUnsupportedMediaType {
					t.Fatalf("pieces of %d: got %q, %v; want unsupported-media-type", n, got, err)
				}
			}
		})
	}
	t.Run("RefusedEarly", func(t *testing.T) {
		// A refused type stops the stream at the write that decides it, not at the end.
		s := NewAttachmentSniffer()
		head := []byte("<html>" + strings.Repeat("a", sniffHead))
		if _, err := s.Write(head); err == nil {
			t.Fatal("a full head of HTML was accepted")
		}
	})
}
