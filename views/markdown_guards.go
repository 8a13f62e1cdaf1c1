package views

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The guards wrap goldmark's own parsers. Each either lets the parser run, when the work it
// may do is bounded, or answers as goldmark would for text, so the source stays visible.

// nestingGuard opens a container block only below maxNesting; room says how many more levels
// the container needs (a list needs one for its item).
type nestingGuard struct {
	parser.BlockParser
	room int
}

func (g nestingGuard) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if stateOf(pc).done() || nesting(parent)+g.room >= maxNesting {
		return nil, parser.NoChildren
	}
	return g.BlockParser.Open(parent, reader, pc)
}

// nesting counts n and its ancestors below the document.
func nesting(n ast.Node) int {
	depth := 0
	for ; n != nil && n.Kind() != ast.KindDocument; n = n.Parent() {
		depth++
	}
	return depth
}

// inlineGuard lets an inline parser run while its block has attempts left.
type inlineGuard struct{ parser.InlineParser }

func (g inlineGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if !stateOf(pc).admit(parent) {
		return nil
	}
	return g.InlineParser.Parse(parent, block, pc)
}

// CloseBlock passes the end of a block on to parsers that keep state per block.
func (g inlineGuard) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := g.InlineParser.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// linkGuard bounds goldmark's link parser: the labels open at once and the destinations it
// scans.
type linkGuard struct{ inlineGuard }

func (g linkGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	st := stateOf(pc)
	st.in(parent)
	line, _ := block.PeekLine()
	switch {
	case line[0] == '!' && (len(line) < 2 || line[1] != '['):
		return nil // not an image; goldmark answers the same
	case line[0] != ']': // "[" or "![" opens a label
		if st.block.labels >= maxOpenLabels {
			return nil
		}
		node := g.inlineGuard.Parse(parent, block, pc)
		if node != nil {
			st.block.labels++
		}
		return node
	}
	// "]" closes the last open label; with none goldmark returns nil at once. goldmark then
	// reads the label's text through a reader that finds its line by walking back from the
	// block's last line: each "]" may cost as many steps as the block has lines.
	if st.block.labels == 0 || !st.closeAffordable(parent) || !st.admit(parent) {
		return nil
	}
	if len(line) > 1 && line[1] == '(' && !st.destinationBounded(line[2:]) {
		return nil // the label stays open and the "]" is text
	}
	st.block.labels-- // goldmark removes the label, whether or not it makes a link
	return g.InlineParser.Parse(parent, block, pc)
}

// closeAffordable reports whether block can pay for one more "]": together they may cost
// maxCloseWork steps per byte of the block.
func (st *markdownState) closeAffordable(block ast.Node) bool {
	if st.block.lines == 0 {
		lines := block.Lines()
		st.block.lines = lines.Len()
		for i := range st.block.lines {
			seg := lines.At(i)
			st.block.size += seg.Len()
		}
		st.stats.Steps += st.block.lines
	}
	if st.block.closeWork+st.block.lines > maxCloseWork*st.block.size {
		return false
	}
	st.block.closeWork += st.block.lines
	return true
}

// destinationBounded reports whether the link destination at the start of rest (what follows
// "](") ends within maxLinkParens nested parentheses, or, written as <…>, before another "<"
// or the end of the line (CommonMark allows neither inside), and within what is left of the
// block's maxDestinationWork. goldmark then reads the same bytes again.
func (st *markdownState) destinationBounded(rest []byte) bool {
	budget := maxDestinationWork*st.block.size - st.block.destinationWork
	rest = rest[:min(len(rest), max(budget, 0))]
	i := 0
	defer func() { st.block.destinationWork += i; st.stats.Steps += i }()
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	if i < len(rest) && rest[i] == '<' {
		for i++; i < len(rest); i++ {
			switch c := rest[i]; {
			case c == '\\' && i+1 < len(rest) && util.IsPunct(rest[i+1]):
				i++
			case c == '>':
				return true
			case c == '<' || c == '\n':
				return false
			}
		}
		return false
	}
	depth := 0
	for ; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && i+1 < len(rest) && util.IsPunct(rest[i+1]):
			i++
		case c == '(':
			if depth++; depth > maxLinkParens {
				return false
			}
		case c == ')':
			if depth--; depth < 0 {
				return true
			}
		case util.IsSpace(c):
			return true
		}
	}
	return i < budget // the line ended, not the budget
}

// codeSpanGuard answers for goldmark's code span parser when no closing backtick run of the
// same length follows in the block: goldmark would read the rest of the block to find out,
// once per opening run.
type codeSpanGuard struct{ inlineGuard }

func (g codeSpanGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	st := stateOf(pc)
	line, seg := block.PeekLine()
	run := 0
	for run < len(line) && line[run] == '`' {
		run++
	}
	if run == 0 {
		return nil
	}
	if !st.admit(parent) || !st.closerAfter(parent, block.Source(), seg.Start, run) {
		// What goldmark returns when it finds no closer: the run as text, in one piece
		// rather than a backtick at a time.
		block.Advance(run)
		return ast.NewTextSegment(seg.WithStop(seg.Start + run))
	}
	return g.InlineParser.Parse(parent, block, pc)
}

// closerAfter reports whether block has a backtick run of length run starting after pos,
// reading the block once.
func (st *markdownState) closerAfter(block ast.Node, source []byte, pos, run int) bool {
	if st.block.ticks == nil {
		st.block.ticks = map[int]int{}
		lines := block.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			b := source[seg.Start:seg.Stop]
			for j := 0; j < len(b); {
				if b[j] != '`' {
					j++
					continue
				}
				k := j
				for k < len(b) && b[k] == '`' {
					k++
				}
				st.block.ticks[k-j] = seg.Start + j // lines come in order: the last run wins
				j = k
			}
			st.stats.Steps += len(b)
		}
	}
	last, ok := st.block.ticks[run]
	return ok && last > pos
}

// referenceGuard gives goldmark's link reference definition parser at most maxReferenceLines
// lines of a paragraph at a time: it takes time quadratic in the lines it is given. A
// definition that crosses from one batch to the next is text.
type referenceGuard struct{ parser.ParagraphTransformer }

func (g referenceGuard) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if node.Lines().Len() <= maxReferenceLines {
		g.ParagraphTransformer.Transform(node, reader, pc)
		return
	}
	all := append([]text.Segment(nil), node.Lines().Sliced(0, node.Lines().Len())...)
	stateOf(pc).stats.Steps += len(all)
	for from := 0; ; {
		to := min(from+maxReferenceLines, len(all))
		batch := text.NewSegments()
		batch.AppendAll(all[from:to])
		node.SetLines(batch)
		parent, next := node.Parent(), node.NextSibling()
		g.ParagraphTransformer.Transform(node, reader, pc)
		if node.Parent() != nil { // the definitions ended in this batch: the rest is text
			node.Lines().AppendAll(all[to:])
			return
		}
		if to == len(all) { // all definitions: the paragraph is gone
			return
		}
		// The whole batch was definitions: put the paragraph back with the lines left.
		if next != nil {
			parent.InsertBefore(parent, next, node)
		} else {
			parent.AppendChild(parent, node)
		}
		from = to
	}
}
