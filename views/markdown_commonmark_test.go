package views

import (
	"strings"
	"testing"
)

// TestWebMarkdownCommonMark pins how CommonMark's constructs map onto the flat blocks the
// templates render.
func TestWebMarkdownCommonMark(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"Heading4", "#### Four", `<h5 class="md-h3">Four</h5>`},
		{"Setext", "Title\n=====", `<h3 class="md-h1">Title</h3>`},
		{"SetextTwoLines", "a\nb\n---", `<h4 class="md-h2">a b</h4>`},
		{"EmptyHeading", "#", `<h3 class="md-h1"></h3>`},
		{"NestedList", "- a\n  - b\n  - c\n- d", "<ul><li>a</li><li>b</li><li>c</li><li>d</li></ul>"},
		{"NestedFirst", "- - a\n- b", "<ul><li>a</li><li>b</li></ul>"},
		{"LooseList", "- a\n\n- b", "<ul><li>a</li><li>b</li></ul>"},
		{"EmptyItem", "-", "<ul><li></li></ul>"},
		{"ItemContinues", "- a\n  b", "<ul><li>a b</li></ul>"},
		{"ItemCode", "1. run\n\n   ```\n   make\n   ```\n2. done", "<ol><li>run <code>make</code></li><li>done</li></ol>"},
		{"Quote", "> quoted *text*", "<p>quoted <em>text</em></p>"},
		{"QuoteInItem", "- a\n  > b", "<ul><li>a b</li></ul>"},
		{"ThematicBreak", "a\n\n---\n\nb", "<p>a</p><p>b</p>"},
		{"IndentedCode", "    x < y", "<pre><code>x &lt; y</code></pre>"},
		{"HardBreak", "a\\\nb", "<p>a<br>b</p>"},
		{"StrongInLink", "[**b**](https://e.com)", `href="https://e.com" rel="noopener noreferrer" target="_blank">b<span`},
		{"LinkInStrong", "**a [b](https://e.com) c**", `<strong>a </strong><a href="https://e.com"`},
		{"StrongEmphasis", "***x***", "<p><strong>x</strong></p>"},
		{"StrongAcrossLinesInItem", "- **a\n  b**", "<li><strong>a b</strong></li>"},
		{"CodeSpanBacktick", "`` a`b ``", "<code>a`b</code>"},
		{"UnclosedBacktick", "`a", "<p>`a</p>"},
		{"EntityInCode", "`&amp;`", "<code>&amp;amp;</code>"},
		{"EscapedHTML", `\<b>`, "<p>&lt;b&gt;</p>"},
		{"Unicode", "Grüße *ü*", "<p>Grüße <em>ü</em></p>"},
		{"EmptyLinkText", "[](https://e.com)", `target="_blank">https://e.com<span`},
		{"ReferenceOnly", "[a]: https://e.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := renderBlocks(t, parseForTest(t, tc.src))
			checkSafeHTML(t, out)
			got := strings.ReplaceAll(out, "> ", ">")
			if tc.want == "" && strings.TrimSpace(got) != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("%q rendered %q, want %q in it", tc.src, got, tc.want)
			}
		})
	}
}
