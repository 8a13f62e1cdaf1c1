package views

import (
	"net/url"
	"strings"
)

// Instructions are Markdown written by workflow authors (SPEC 5.2). They are rendered safely by
// construction: the text is parsed into this small typed tree and the templates print every
// piece through templ's escaping, so no HTML in the source ever reaches the page — raw HTML is
// shown as text. The subset: paragraphs (a blank line separates them; single line breaks
// are kept), `#`–`###` headings, `-`/`*`/`+` and `1.` lists, fenced code blocks, and inline
// **strong**, *emphasis* / _emphasis_, `code`, [links](https://…) and <https://…> autolinks.
// Links are kept only for http, https and mailto; anything else stays text.
//
// A maintained Markdown library (goldmark with raw HTML off) would render more syntax, but it
// emits an HTML string the templates would have to trust, and it needs an AST extension to add
// rel="noopener". This subset covers task instructions and leaves nothing to trust.

// BlockKind says what a Block is.
type BlockKind int

const (
	BlockParagraph BlockKind = iota
	BlockHeading
	BlockList
	BlockOrderedList
	BlockCode
)

// Block is one block of instructions.
type Block struct {
	Kind    BlockKind
	Level   int        // headings: 1–3
	Lines   [][]Inline // paragraphs and headings: lines joined by <br>
	Items   [][]Inline // lists
	Code    string     // code blocks
	Ordered bool
}

// InlineKind says what an Inline is.
type InlineKind int

const (
	InlineText InlineKind = iota
	InlineStrong
	InlineEmphasis
	InlineCode
	InlineLink
)

// Inline is one run of text.
type Inline struct {
	Kind InlineKind
	Text string
	Href string // links only; http, https or mailto
}

// ParseMarkdown parses instructions into blocks.
func ParseMarkdown(src string) []Block {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n"), "\n")
	var blocks []Block
	var para []string
	flush := func() {
		if len(para) > 0 {
			b := Block{Kind: BlockParagraph}
			for _, l := range para {
				b.Lines = append(b.Lines, parseInline(strings.TrimSpace(l)))
			}
			blocks = append(blocks, b)
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			flush()
			fence := trimmed[:3]
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
				code = append(code, lines[i])
			}
			blocks = append(blocks, Block{Kind: BlockCode, Code: strings.Join(code, "\n")})
		case headingLevel(trimmed) > 0:
			flush()
			level := headingLevel(trimmed)
			text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(trimmed[level:]), "#"))
			blocks = append(blocks, Block{Kind: BlockHeading, Level: level, Lines: [][]Inline{parseInline(text)}})
		case listItem(trimmed, false) != "" || listItem(trimmed, true) != "":
			flush()
			ordered := listItem(trimmed, true) != ""
			b := Block{Kind: BlockList, Ordered: ordered}
			if ordered {
				b.Kind = BlockOrderedList
			}
			for ; i < len(lines); i++ {
				t := strings.TrimSpace(lines[i])
				item := listItem(t, ordered)
				switch {
				case item != "":
					b.Items = append(b.Items, parseInline(item))
					continue
				case t != "" && len(b.Items) > 0 && strings.HasPrefix(lines[i], "  "):
					// An indented line continues the previous item.
					last := len(b.Items) - 1
					b.Items[last] = append(b.Items[last], Inline{Kind: InlineText, Text: " "})
					b.Items[last] = append(b.Items[last], parseInline(t)...)
					continue
				}
				break
			}
			i--
			blocks = append(blocks, b)
		default:
			para = append(para, line)
		}
	}
	flush()
	return blocks
}

// headingLevel returns 1–3 for "# ", "## ", "### ", otherwise 0.
func headingLevel(s string) int {
	for level := 3; level >= 1; level-- {
		if strings.HasPrefix(s, strings.Repeat("#", level)+" ") {
			return level
		}
	}
	return 0
}

// listItem returns the text of a list item line, "" when s is not one.
func listItem(s string, ordered bool) string {
	if !ordered {
		for _, m := range []string{"- ", "* ", "+ "} {
			if strings.HasPrefix(s, m) {
				return strings.TrimSpace(s[2:])
			}
		}
		return ""
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n+1 >= len(s) || (s[n] != '.' && s[n] != ')') || s[n+1] != ' ' {
		return ""
	}
	return strings.TrimSpace(s[n+2:])
}

// parseInline splits one line into inline runs.
func parseInline(s string) []Inline {
	var out []Inline
	var text strings.Builder
	emit := func(in Inline) {
		if text.Len() > 0 {
			out = append(out, Inline{Kind: InlineText, Text: text.String()})
			text.Reset()
		}
		out = append(out, in)
	}
	for i := 0; i < len(s); {
		rest := s[i:]
		switch {
		case rest[0] == '\\' && len(rest) > 1 && strings.ContainsRune("\\`*_[]()<>#+-.!", rune(rest[1])):
			text.WriteByte(rest[1])
			i += 2
			continue
		case rest[0] == '`':
			if end := strings.IndexByte(rest[1:], '`'); end >= 0 {
				emit(Inline{Kind: InlineCode, Text: rest[1 : 1+end]})
				i += end + 2
				continue
			}
		case strings.HasPrefix(rest, "**") || strings.HasPrefix(rest, "__"):
			if end := strings.Index(rest[2:], rest[:2]); end > 0 {
				emit(Inline{Kind: InlineStrong, Text: rest[2 : 2+end]})
				i += end + 4
				continue
			}
		case rest[0] == '*' || (rest[0] == '_' && wordBoundary(s, i)):
			if end := strings.IndexByte(rest[1:], rest[0]); end > 0 && rest[1] != ' ' {
				emit(Inline{Kind: InlineEmphasis, Text: rest[1 : 1+end]})
				i += end + 2
				continue
			}
		case rest[0] == '[':
			if label, href, n, ok := linkAt(rest); ok {
				if safe := safeHref(href); safe != "" {
					emit(Inline{Kind: InlineLink, Text: label, Href: safe})
				} else {
					text.WriteString(label)
				}
				i += n
				continue
			}
		case rest[0] == '<':
			if end := strings.IndexByte(rest, '>'); end > 0 {
				if safe := safeHref(rest[1:end]); safe != "" && !strings.ContainsAny(rest[1:end], " \t") {
					emit(Inline{Kind: InlineLink, Text: rest[1:end], Href: safe})
					i += end + 1
					continue
				}
			}
		}
		text.WriteByte(s[i])
		i++
	}
	if text.Len() > 0 {
		out = append(out, Inline{Kind: InlineText, Text: text.String()})
	}
	return out
}

// wordBoundary reports whether position i of s starts a word (for _emphasis_ inside
// snake_case identifiers to stay text).
func wordBoundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	c := s[i-1]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
}

// linkAt reads "[label](href)" at the start of s.
func linkAt(s string) (label, href string, n int, ok bool) {
	closeLabel := strings.Index(s, "](")
	if closeLabel < 1 || strings.ContainsAny(s[1:closeLabel], "[]") {
		return "", "", 0, false
	}
	closeHref := strings.IndexByte(s[closeLabel+2:], ')')
	if closeHref < 0 {
		return "", "", 0, false
	}
	href = strings.TrimSpace(s[closeLabel+2 : closeLabel+2+closeHref])
	return s[1:closeLabel], href, closeLabel + 3 + closeHref, true
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
