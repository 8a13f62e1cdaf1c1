package views

import (
	"context"
	"testing"
)

// FuzzMarkdown checks that no instructions make the renderer panic, emit markup of their own
// or a link that is not http, https or mailto, or work more than linearly. The normal test run
// executes the seeds only; fuzz with
//
//	go test -run x -fuzz FuzzMarkdown -fuzztime 60s ./views/
func FuzzMarkdown(f *testing.F) {
	for _, in := range adversarialInputs {
		f.Add(in.gen(512)) // small: the fuzzer minimizes what it finds, and that is slow on large inputs
	}
	for _, src := range []string{
		"one\ntwo\n\nthree", "**bold** and *em* and _em2_ and `x<y`", "- a\n  - b\n\n1. one\n2. two",
		"## Steps\n\nSetext\n---", "```\n<b>raw</b>\n```", "[list](https://example.com/a?b=1&c=2)",
		"<https://example.com> <a@example.com>", "<script>alert(1)</script>", "[x](javascript:alert(1))",
		"[x](java&#x73;cript:alert(1))", "[x][r]\n\n[r]: https://e.com 'title'", "![i](https://e.com/i.png)",
		"> quote\n> - item\n>   ```\n>   code\n>   ```", "a\\\nb  \nc", "&copy; &#0; &#x110000; &bogus;",
		"\x00\r\n\xff\u0085", "*a **b** c*", "[a [b](https://e.com) c](https://f.com)",
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		blocks, st := parseMarkdown(context.Background(), src)
		out := renderBlocks(t, blocks)
		checkSafeHTML(t, out)
		checkWork(t, len(src), blocks, st)
		units := outputUnits(blocks)
		if units > maxUnits+1 {
			t.Fatalf("%d output units, want at most %d", units, maxUnits+1)
		}
		// Escaping makes a byte at most 6 (&#34;), a link's href may add 3 per byte
		// (percent-encoding) and a label as long again; each unit adds its fixed markup.
		if limit := 16*len(src) + 128*(units+1); len(out) > limit {
			t.Fatalf("%d bytes rendered %d bytes, want at most %d", len(src), len(out), limit)
		}
		for _, b := range blocks {
			if b.Kind == BlockHeading && len(b.Lines) != 1 {
				t.Fatalf("a heading with %d lines", len(b.Lines))
			}
		}
	})
}
