package views

import (
	"context"
	"strings"

	"github.com/yuin/goldmark/text"
)

// Instructions are Markdown that the workflow runtime sends with a task, up to 256 KiB, shown
// on every view of the task. They are parsed as CommonMark by goldmark and flattened into the
// small typed tree below; the templates print every piece through templ's escaping, so no
// HTML in the source ever reaches the page: raw HTML is shown as text. Links are kept only for
// http, https and mailto (checked after entities and escapes are decoded); anything else stays
// text.
//
// The tree is flat: block quotes show their content without the quote, nested lists become
// items of the outer list, and code inside a list item is shown inline.
//
// Work is linear in the size of the source, whatever it holds. goldmark alone is not: deep
// nesting, unclosed link destinations, unmatched delimiters, link labels around many nodes,
// "]" in paragraphs of many lines and runs of reference definitions each cost time quadratic
// in the input. So its parsers run behind guards (markdown_guards.go) with the limits in
// markdown_limits.go. Past a limit the text stays but loses its markup; past maxUnits, or once
// ctx is done, the rest of the source is shown as plain text.

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
	Lines   [][]Inline // paragraphs and headings (exactly one line): lines joined by <br>
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

// ParseMarkdown parses instructions into blocks. When ctx is done it stops early and returns
// the rest of the source as plain text.
func ParseMarkdown(ctx context.Context, src string) []Block {
	blocks, _ := parseMarkdown(ctx, src)
	return blocks
}

// parseMarkdown parses instructions and says how much work it took.
func parseMarkdown(ctx context.Context, src string) ([]Block, markdownStats) {
	source := []byte(cleanSource(src))
	st := &markdownState{ctx: ctx}
	doc := markdownParser().Parse(text.NewReader(source), parserContext(st))
	b := &blockBuilder{src: source, state: st}
	b.build(doc)
	st.stats.Units = b.units
	return b.blocks, st.stats
}

// plainLines splits text into lines of plain text, leaving out blank ones.
func plainLines(text string) [][]Inline {
	var lines [][]Inline
	for line := range strings.Lines(text) {
		if line = strings.TrimRight(line, " \t\n"); line != "" {
			lines = append(lines, []Inline{{Kind: InlineText, Text: line}})
		}
	}
	return lines
}
