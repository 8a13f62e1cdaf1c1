package views

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// runWriter collects the inline runs of one paragraph, heading or list item. Adjacent text of
// the same kind is merged into one run.
type runWriter struct {
	b       *blockBuilder
	join    bool // a line break is a space (headings, list items), not a new line
	lines   [][]Inline
	line    []Inline
	kind    InlineKind // of the run in text
	text    strings.Builder
	open    bool // text holds a run
	brk     bool // a line break is due before more content
	sep     bool // a space is due before more content
	flushed bool // the writer continues an item whose first part was already added
	em      int  // emphasis and strong emphasis around the walk's position
	strong  int
}

// style is the kind of text at the walk's position.
func (w *runWriter) style() InlineKind {
	switch {
	case w.strong > 0:
		return InlineStrong
	case w.em > 0:
		return InlineEmphasis
	}
	return InlineText
}

// add appends a run; marked-up runs cost a unit and are text once the units are gone.
func (w *runWriter) add(kind InlineKind, s, href string) {
	if s == "" {
		return
	}
	if w.brk || w.sep {
		brk := w.brk
		w.brk, w.sep = false, false
		switch {
		case brk && !w.join:
			w.endLine()
		case kind == InlineStrong || kind == InlineEmphasis:
			w.add(kind, " ", "") // keeps "**a⏎b**" one run
		default:
			w.add(InlineText, " ", "")
		}
	}
	merges := kind != InlineCode && kind != InlineLink
	if w.open && merges && w.kind == kind {
		w.text.WriteString(s)
		return
	}
	if kind != InlineText && !w.b.spend() {
		kind, href, merges = InlineText, "", true
		if w.open && w.kind == kind {
			w.text.WriteString(s)
			return
		}
	}
	w.flush()
	if !merges {
		w.line = append(w.line, Inline{Kind: kind, Text: s, Href: href})
		return
	}
	w.kind, w.open = kind, true
	w.text.WriteString(s)
}

// lineBreak ends the line, once more content follows.
func (w *runWriter) lineBreak() {
	if w.open || len(w.line) > 0 {
		w.brk = true
	}
}

// separate puts a space between two blocks written into one item.
func (w *runWriter) separate() {
	if w.open || len(w.line) > 0 {
		w.sep = true
	}
}

func (w *runWriter) flush() {
	if w.open {
		w.line = append(w.line, Inline{Kind: w.kind, Text: w.text.String()})
		w.text.Reset()
		w.open = false
	}
}

func (w *runWriter) endLine() {
	w.flush()
	if len(w.line) > 0 {
		w.lines = append(w.lines, w.line)
		w.line = nil
	}
}

// finish returns the lines written.
func (w *runWriter) finish() [][]Inline {
	w.endLine()
	return w.lines
}

// joined returns what was written as one line.
func (w *runWriter) joined() []Inline {
	w.flush()
	return w.line
}

// walk writes the inline content under root, depth first, without recursion: emphasis nests
// as deep as the source has delimiters.
func (w *runWriter) walk(root ast.Node) {
	n := root.FirstChild()
	for n != nil {
		w.b.state.stats.Steps++
		if w.enter(n) && n.FirstChild() != nil {
			n = n.FirstChild()
			continue
		}
		for {
			w.leave(n)
			if next := n.NextSibling(); next != nil {
				n = next
				break
			}
			if n = n.Parent(); n == root {
				n = nil
				break
			}
		}
	}
}

// enter writes n and reports whether to walk its children.
func (w *runWriter) enter(n ast.Node) bool {
	src := w.b.src
	switch n := n.(type) {
	case *ast.Text:
		w.add(w.style(), textOf(n, src), "")
		if n.SoftLineBreak() || n.HardLineBreak() {
			w.lineBreak()
		}
	case *ast.String:
		w.add(w.style(), stringOf(n), "")
	case *ast.CodeSpan:
		w.add(InlineCode, codeSpanOf(n, src), "")
	case *ast.Emphasis:
		if n.Level >= 2 {
			w.strong++
		} else {
			w.em++
		}
		return true
	case *ast.Link:
		w.link(labelOf(n, src), n.Destination)
	case *ast.Image:
		w.link(labelOf(n, src), n.Destination)
	case *ast.AutoLink:
		label, dest := string(n.Label(src)), string(n.URL(src))
		if n.AutoLinkType == ast.AutoLinkEmail {
			dest = "mailto:" + dest
		}
		if href := safeHref(dest); href != "" {
			w.add(InlineLink, label, href)
		} else {
			w.add(w.style(), "<"+label+">", "")
		}
	case *ast.RawHTML:
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			v := string(seg.Value(src))
			w.add(w.style(), strings.TrimSuffix(v, "\n"), "")
			if strings.HasSuffix(v, "\n") {
				w.lineBreak()
			}
		}
	default:
		return true
	}
	return false
}

// leave closes n after its children.
func (w *runWriter) leave(n ast.Node) {
	if e, ok := n.(*ast.Emphasis); ok {
		if e.Level >= 2 {
			w.strong--
		} else {
			w.em--
		}
	}
}

// link writes a link when its destination is safe, otherwise its label as text.
func (w *runWriter) link(label string, destination []byte) {
	href := safeHref(decodeText(destination))
	if href == "" {
		w.add(w.style(), label, "")
		return
	}
	if label == "" {
		label = href
	}
	w.add(InlineLink, label, href)
}

// textOf is the text of a Text node, escapes and character references resolved.
func textOf(n *ast.Text, src []byte) string {
	if n.IsRaw() {
		return string(n.Value(src))
	}
	return decodeText(n.Value(src))
}

func stringOf(n *ast.String) string {
	if n.IsRaw() || n.IsCode() {
		return string(n.Value)
	}
	return decodeText(n.Value)
}

// codeSpanOf is the text of a code span; its line breaks are spaces.
func codeSpanOf(n *ast.CodeSpan, src []byte) string {
	var s strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			s.Write(t.Value(src))
		}
	}
	return strings.ReplaceAll(s.String(), "\n", " ")
}

// labelOf is the plain text under a link or image, walked without recursion.
func labelOf(root ast.Node, src []byte) string {
	var s strings.Builder
	n := root.FirstChild()
	for n != nil {
		descend := false
		switch n := n.(type) {
		case *ast.Text:
			s.WriteString(textOf(n, src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				s.WriteByte(' ')
			}
		case *ast.String:
			s.WriteString(stringOf(n))
		case *ast.CodeSpan:
			s.WriteString(codeSpanOf(n, src))
		case *ast.AutoLink:
			s.Write(n.Label(src))
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				s.Write(seg.Value(src))
			}
		default:
			descend = true
		}
		if descend && n.FirstChild() != nil {
			n = n.FirstChild()
			continue
		}
		for n != nil {
			if next := n.NextSibling(); next != nil {
				n = next
				break
			}
			if n = n.Parent(); n == root {
				n = nil
			}
		}
	}
	return strings.TrimSpace(strings.ReplaceAll(s.String(), "\n", " "))
}
