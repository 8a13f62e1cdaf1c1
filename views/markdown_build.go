package views

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// blockBuilder flattens goldmark's tree into Blocks. It recurses only into block containers,
// whose depth the parser bounds, and walks inline content without recursion.
type blockBuilder struct {
	src    []byte
	state  *markdownState
	blocks []Block
	units  int
}

// spend takes one of the document's units; false once they are gone.
func (b *blockBuilder) spend() bool {
	if b.units >= maxUnits {
		return false
	}
	b.units++
	return true
}

// build appends the document's blocks and, if it had to stop early, the rest of the source as
// plain text.
func (b *blockBuilder) build(doc ast.Node) {
	if stop := b.container(doc); stop != nil {
		if from := nodeStart(stop); from >= 0 && from < len(b.src) {
			if lines := plainLines(string(b.src[from:])); len(lines) > 0 {
				b.blocks = append(b.blocks, Block{Kind: BlockParagraph, Lines: lines})
			}
		}
	}
}

// next reports whether the builder may go on to n.
func (b *blockBuilder) next() bool {
	return !b.state.done() && b.spend()
}

// container appends the blocks inside parent (the document or a block quote). It returns the
// node where it stopped early, or nil.
func (b *blockBuilder) container(parent ast.Node) ast.Node {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n.(type) {
		case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
			continue // no block for them; the blocks around a break are separate already
		}
		if !b.next() {
			return n
		}
		switch n := n.(type) {
		case *ast.Heading:
			w := &runWriter{b: b, join: true}
			w.walk(n)
			b.blocks = append(b.blocks, Block{Kind: BlockHeading, Level: min(n.Level, 3), Lines: [][]Inline{w.joined()}})
		case *ast.Paragraph, *ast.TextBlock:
			w := &runWriter{b: b}
			w.walk(n)
			if lines := w.finish(); len(lines) > 0 {
				b.blocks = append(b.blocks, Block{Kind: BlockParagraph, Lines: lines})
			}
		case *ast.List:
			list := Block{Kind: BlockList}
			if n.IsOrdered() {
				list.Kind, list.Ordered = BlockOrderedList, true
			}
			stop := b.items(n, &list)
			if len(list.Items) > 0 {
				b.blocks = append(b.blocks, list)
			}
			if stop != nil {
				return stop
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			b.blocks = append(b.blocks, Block{Kind: BlockCode, Code: b.code(n)})
		case *ast.HTMLBlock:
			if lines := plainLines(b.html(n)); len(lines) > 0 {
				b.blocks = append(b.blocks, Block{Kind: BlockParagraph, Lines: lines})
			}
		default: // block quotes, and any other container: their content
			if stop := b.container(n); stop != nil {
				return stop
			}
		}
	}
	return nil
}

// items appends the items of list to block, and the items of lists nested in them after
// their parent item. It returns the node where it stopped early, or nil.
func (b *blockBuilder) items(list ast.Node, block *Block) ast.Node {
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		if !b.next() {
			return item
		}
		w := &runWriter{b: b, join: true}
		stop := b.itemContent(item, w, block)
		if runs := w.joined(); len(runs) > 0 || !w.flushed {
			block.Items = append(block.Items, runs)
		}
		if stop != nil {
			return stop
		}
	}
	return nil
}

// itemContent writes the content of parent (a list item, or a block quote in one) as one run
// list; a nested list ends it and adds its own items.
func (b *blockBuilder) itemContent(parent ast.Node, w *runWriter, block *Block) ast.Node {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.List:
			if runs := w.joined(); len(runs) > 0 {
				block.Items = append(block.Items, runs)
			}
			*w = runWriter{b: b, join: true, flushed: true}
			if stop := b.items(n, block); stop != nil {
				return stop
			}
		case *ast.Blockquote:
			if stop := b.itemContent(n, w, block); stop != nil {
				return stop
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			w.separate()
			w.add(InlineCode, b.code(n), "")
		case *ast.HTMLBlock:
			w.separate()
			w.add(InlineText, strings.Join(strings.Fields(b.html(n)), " "), "")
		case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
		default:
			w.separate()
			w.walk(n)
		}
	}
	return nil
}

// code is the text of a code block, without its last line break.
func (b *blockBuilder) code(n ast.Node) string {
	var s strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		s.Write(seg.Value(b.src))
	}
	return strings.TrimSuffix(s.String(), "\n")
}

// html is the source of an HTML block, shown as text.
func (b *blockBuilder) html(n *ast.HTMLBlock) string {
	var s strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		s.Write(seg.Value(b.src))
	}
	if n.HasClosure() {
		s.Write(n.ClosureLine.Value(b.src))
	}
	return s.String()
}

// nodeStart is where n starts in the source, or -1.
func nodeStart(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if p := n.Pos(); p >= 0 {
			return p
		}
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	}
	return -1
}
