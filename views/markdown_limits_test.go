package views

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestWebMarkdownLinearWork proves the parse linear by counting, not timing: the decisions
// the guards take, the bytes their pre-scans read and the nodes the builder walks stay within
// the same number per byte of input at 16 and 64 KiB (and, in TestWebMarkdownAdversarial, at
// 256 KiB) for every adversarial kind; work quadratic in the input would grow 16-fold per byte
// from 16 to 256 KiB. goldmark's inline parsers run at most maxInlineAttempts times per block.
// What goldmark does inside one call is bounded by the guards' conditions (see
// markdown_limits.go); BenchmarkMarkdownAdversarial shows the time.
func TestWebMarkdownLinearWork(t *testing.T) {
	for _, in := range adversarialInputs {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			for _, size := range []int{16 << 10, 64 << 10} {
				src := in.gen(size)
				blocks, st := parseMarkdown(context.Background(), src)
				checkWork(t, len(src), blocks, st)
			}
		})
	}
}

// stepsPerByte is the work per byte of source that TestWebMarkdownLinearWork allows.
const stepsPerByte = 8

// checkWork fails when a parse of n bytes took more than linear work.
func checkWork(t testing.TB, n int, blocks []Block, st markdownStats) {
	t.Helper()
	if limit := stepsPerByte*n + 4096; st.Steps > limit {
		t.Errorf("%d steps for %d bytes, want at most %d", st.Steps, n, limit)
	}
	if limit := maxInlineAttempts * (len(blocks) + st.Units + 1); st.Attempts > limit {
		t.Errorf("%d inline attempts for %d bytes, want at most %d", st.Attempts, n, limit)
	}
}

// countdownCtx is done after its Err has been asked a number of times: a request that goes
// away in the middle of a parse, without a clock.
type countdownCtx struct {
	context.Context
	left int
}

func (c *countdownCtx) Err() error {
	if c.left--; c.left < 0 {
		return context.Canceled
	}
	return nil
}

func TestWebMarkdownCancelled(t *testing.T) {
	src := strings.Repeat("Read **this** and [that](https://e.com).\n\n", 5000)
	t.Run("AlreadyDone", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		blocks, st := parseMarkdown(ctx, src)
		if st.Attempts != 0 || outputUnits(blocks) != 1 || len(blocks[0].Lines) != 5000 {
			t.Fatalf("%d attempts, %d units, want the source as one block of plain lines", st.Attempts, outputUnits(blocks))
		}
		if got := blocks[0].Lines[0][0].Text; got != "Read **this** and [that](https://e.com)." {
			t.Fatalf("first line %q, want the source", got)
		}
	})
	t.Run("DoneMidway", func(t *testing.T) {
		_, full := parseMarkdown(context.Background(), src)
		blocks, st := parseMarkdown(&countdownCtx{Context: context.Background(), left: 10}, src)
		if st.Attempts >= full.Attempts/2 || st.Steps >= full.Steps/2 {
			t.Fatalf("%d attempts and %d steps, want well under the full parse's %d and %d", st.Attempts, st.Steps, full.Attempts, full.Steps)
		}
		last := blocks[len(blocks)-1]
		if got := last.Lines[len(last.Lines)-1][0].Text; got != "Read **this** and [that](https://e.com)." {
			t.Fatalf("last line %q, want the rest of the source as text", got)
		}
	})
}

func TestWebMarkdownUnitsBounded(t *testing.T) {
	t.Run("Links", func(t *testing.T) {
		para := strings.Repeat("[a](https://e.com) ", 100) + "\n\n"
		blocks := parseForTest(t, strings.Repeat(para, maxUnits/50))
		links := 0
		for _, b := range blocks {
			for _, line := range b.Lines {
				for _, r := range line {
					if r.Kind == InlineLink {
						links++
					}
				}
			}
		}
		if got := outputUnits(blocks); got > maxUnits+1 || links < maxUnits/2 {
			t.Fatalf("%d units with %d links, want at most %d units and most of them links", got, links, maxUnits+1)
		}
		rest := blocks[len(blocks)-1]
		if got := rest.Lines[len(rest.Lines)-1][0].Text; got != strings.TrimSpace(para) {
			t.Fatalf("last line %.60q, want the source's last paragraph as text", got)
		}
	})
	t.Run("Blocks", func(t *testing.T) {
		blocks := parseForTest(t, strings.Repeat("# h\n\npara\n\n", maxUnits))
		if len(blocks) > maxUnits+1 {
			t.Fatalf("%d blocks, want at most %d", len(blocks), maxUnits+1)
		}
		rest := blocks[len(blocks)-1]
		if rest.Kind != BlockParagraph || len(rest.Lines) != maxUnits || rest.Lines[0][0].Text != "# h" {
			t.Fatalf("last block %+v, want the rest of the source as plain lines", rest.Lines[:2])
		}
	})
}

func TestWebMarkdownNesting(t *testing.T) {
	for depth := maxNesting - 2; depth <= maxNesting+2; depth++ {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			src := strings.Repeat("> ", depth) + "deep"
			blocks := parseForTest(t, src)
			got := blocks[0].Lines[0][0].Text
			if want := strings.Repeat("> ", max(0, depth-maxNesting)) + "deep"; depth > maxNesting && got != want {
				t.Fatalf("%q rendered %q, want the markers past the limit as text %q", src, got, want)
			}
			if depth <= maxNesting && got != "deep" {
				t.Fatalf("%q rendered %q, want %q", src, got, "deep")
			}
		})
	}
}
