package views

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// cleanSource makes the source safe to parse and to show: line endings become "\n"; NUL and
// other control characters (but tab and line feed) become U+FFFD, as CommonMark does for NUL;
// each run of bytes that are not UTF-8 becomes one U+FFFD.
func cleanSource(src string) string {
	var b strings.Builder
	clean := 0 // src[clean:i] needs no change
	invalid := false
	for i := 0; i < len(src); {
		c := src[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			invalid = false
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		var with string
		switch {
		case c == '\r':
			with = "\n"
			if i+1 < len(src) && src[i+1] == '\n' {
				size = 2
			}
		case r == utf8.RuneError && size == 1:
			if !invalid {
				with = "\uFFFD"
			}
		case isControl(r):
			with = "\uFFFD"
		default:
			i += size
			invalid = false
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(src) + 16)
		}
		b.WriteString(src[clean:i])
		b.WriteString(with)
		i += size
		clean = i
		invalid = r == utf8.RuneError && size == 1
	}
	if clean == 0 {
		return src
	}
	b.WriteString(src[clean:])
	return b.String()
}

// isControl reports C0 and C1 control characters other than tab and line feed.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// decodeText resolves backslash escapes and character references, as CommonMark does for
// text and link destinations.
func decodeText(s []byte) string {
	i := bytes.IndexAny(s, `\&`)
	if i < 0 {
		return string(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.Write(s[:i])
		s = s[i:]
		switch {
		case s[0] == '\\' && len(s) > 1 && util.IsPunct(s[1]):
			b.WriteByte(s[1])
			s = s[2:]
		case s[0] == '&':
			if ref, n := charRef(s); n > 0 {
				b.WriteString(ref)
				s = s[n:]
				break
			}
			fallthrough
		default:
			b.WriteByte(s[0])
			s = s[1:]
		}
		i = bytes.IndexAny(s, `\&`)
	}
	b.Write(s)
	return b.String()
}

// maxEntityName is longer than the longest HTML5 entity name (31 bytes).
const maxEntityName = 32

// charRef reads the character reference at the start of s ("&amp;", "&#38;", "&#x26;") and
// returns its text and length, or a length of 0. Scans are bounded: at most 7 decimal or 6 hex
// digits, as CommonMark allows, and maxEntityName letters.
func charRef(s []byte) (string, int) {
	if len(s) > 2 && s[1] == '#' {
		start, digits, base := 2, 7, 10
		if s[2] == 'x' || s[2] == 'X' {
			start, digits, base = 3, 6, 16
		}
		j := start
		for j < len(s) && j-start < digits && (util.IsNumeric(s[j]) || base == 16 && util.IsHexDecimal(s[j])) {
			j++
		}
		if j == start || j >= len(s) || s[j] != ';' {
			return "", 0
		}
		v, _ := strconv.ParseUint(string(s[start:j]), base, 32)
		r := rune(v)
		if r == 0 || isControl(r) || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		return string(r), j + 1
	}
	j := 1
	for j < len(s) && j <= maxEntityName && util.IsAlphaNumeric(s[j]) {
		j++
	}
	if j == 1 || j >= len(s) || s[j] != ';' {
		return "", 0
	}
	e, ok := util.LookUpHTML5EntityByName(string(s[1:j]))
	if !ok {
		return "", 0
	}
	return string(e.Characters), j + 1
}

// safeHref returns href when it is an absolute http, https or mailto URL, otherwise "".
func safeHref(href string) string {
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return ""
		}
		return u.String()
	case "mailto":
		if u.Opaque == "" {
			return ""
		}
		return u.String()
	}
	return ""
}
