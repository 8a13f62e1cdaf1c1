package views

import (
	"context"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// The limits that keep parsing linear. Each is far above what instructions written by hand
// need, and each degrades to text rather than failing.
const (
	// maxNesting bounds nested block quotes, lists and list items. goldmark walks the open
	// containers for every line and measures indentation from the start of the line, so n
	// markers on one line cost n². Deeper markers are text.
	maxNesting = 16
	// maxInlineAttempts bounds the calls into goldmark's inline parsers (one per *, _, `, [, ],
	// ! or < that could start markup) per paragraph, heading or list item. Its delimiter and
	// link-label handling is quadratic in the number of such calls within one block.
	// Later markers in the block are text.
	maxInlineAttempts = 512
	// maxOpenLabels bounds the "[" and "![" waiting for their "]" in one block: every "]"
	// walks the nodes after its label, so a node is walked at most this many times.
	maxOpenLabels = 32
	// maxLinkParens bounds nested parentheses in a link destination, as cmark does: goldmark
	// scans a destination to the end of the line, once per "](".
	maxLinkParens = 32
	// maxDestinationWork bounds, per byte of a block, the link destination bytes scanned in
	// it; each destination of an ordinary paragraph is scanned once.
	maxDestinationWork = 2
	// maxCloseWork bounds, per byte of a block, the lines goldmark walks back over for the
	// "]"s in it (see linkGuard). An ordinary paragraph never reaches it.
	maxCloseWork = 16
	// maxReferenceLines is how many lines of a paragraph goldmark's link reference definition
	// parser sees at once (see referenceGuard).
	maxReferenceLines = 64
	// maxUnits bounds the blocks, list items and marked-up runs of a document, so the page
	// stays within a constant factor of the source. The rest of the source is plain text.
	maxUnits = 10000
	// ctxCheckEvery is how many guard decisions pass between looks at the context.
	ctxCheckEvery = 256
)

// markdownStats says how much work a parse took, for tests that prove it linear.
type markdownStats struct {
	Steps    int // guard decisions, bytes our own pre-scans read and nodes we walked
	Attempts int // calls let through to goldmark's inline parsers
	Units    int // blocks, list items and marked-up runs produced
}

// markdownState is one parse's state; goldmark's parsers are shared, so it lives in the
// parser.Context.
type markdownState struct {
	ctx     context.Context
	decided int
	stopped bool // ctx was done: no more markup
	stats   markdownStats
	block   blockBudget // of the block whose inline content is being parsed
}

// blockBudget is what one paragraph, heading or list item has used of its limits.
type blockBudget struct {
	node            ast.Node
	attempts        int
	labels          int         // "[" and "![" waiting for their "]"
	ticks           map[int]int // start of the last backtick run of each length; nil until needed
	lines, size     int         // of the block, once a "]" needs them
	closeWork       int         // lines that the block's "]"s may walk back over
	destinationWork int         // link destination bytes scanned in the block
}

var stateKey = parser.NewContextKey()

// parserContext carries st into goldmark's parsers.
func parserContext(st *markdownState) parser.ParseOption {
	pc := parser.NewContext()
	pc.Set(stateKey, st)
	return parser.WithContext(pc)
}

func stateOf(pc parser.Context) *markdownState { return pc.Get(stateKey).(*markdownState) }

// done reports whether ctx is done, looking at it on the first and every ctxCheckEvery-th
// decision.
func (st *markdownState) done() bool {
	st.stats.Steps++
	if st.decided%ctxCheckEvery == 0 && !st.stopped && st.ctx.Err() != nil {
		st.stopped = true
	}
	st.decided++
	return st.stopped
}

// in starts the per-block counts when inline parsing moves on to block.
func (st *markdownState) in(block ast.Node) {
	if block != st.block.node {
		st.block = blockBudget{node: block}
	}
}

// admit reports whether an inline parser may look at the markup at the reader's position in
// block, and counts the attempt.
func (st *markdownState) admit(block ast.Node) bool {
	st.in(block)
	if st.done() || st.block.attempts >= maxInlineAttempts {
		return false
	}
	st.block.attempts++
	st.stats.Attempts++
	return true
}

// markdownParser is goldmark's CommonMark parser with every parser that can go superlinear
// behind a guard. goldmark's parsers keep their state in the parser.Context, so one parser
// serves all requests.
var markdownParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		// goldmark's DefaultBlockParsers, in the same order.
		parser.WithBlockParsers(
			util.Prioritized(parser.NewSetextHeadingParser(), 100),
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(nestingGuard{parser.NewListParser(), 1}, 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewATXHeadingParser(), 600),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(nestingGuard{parser.NewBlockquoteParser(), 0}, 800),
			util.Prioritized(parser.NewHTMLBlockParser(), 900),
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		// goldmark's DefaultInlineParsers, in the same order.
		parser.WithInlineParsers(
			util.Prioritized(codeSpanGuard{inlineGuard{parser.NewCodeSpanParser()}}, 100),
			util.Prioritized(linkGuard{inlineGuard{parser.NewLinkParser()}}, 200),
			util.Prioritized(inlineGuard{parser.NewAutoLinkParser()}, 300),
			util.Prioritized(inlineGuard{parser.NewRawHTMLParser()}, 400),
			util.Prioritized(inlineGuard{parser.NewEmphasisParser()}, 500),
		),
		// goldmark's DefaultParagraphTransformers.
		parser.WithParagraphTransformers(
			util.Prioritized(referenceGuard{parser.LinkReferenceParagraphTransformer}, 100),
		),
	)
})
