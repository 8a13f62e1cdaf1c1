package views

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"usertasks/views/i18n"
)

func renderMarkdown(t *testing.T, src string) string {
	t.Helper()
	var buf bytes.Buffer
	c := Chrome{T: i18n.English(), Now: time.Now()}
	if err := Markdown(ParseMarkdown(context.Background(), src), c).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// parseForTest parses instructions for a test.
func parseForTest(t testing.TB, src string) []Block {
	t.Helper()
	return ParseMarkdown(context.Background(), src)
}

func TestWebMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"Paragraphs", "one\ntwo\n\nthree", []string{"<p>one<br>two</p>", "<p>three</p>"}, nil},
		{"Emphasis", "**bold** and *em* and _em2_ and `x<y`", []string{"<strong>bold</strong>", "<em>em</em>", "<em>em2</em>", "<code>x&lt;y</code>"}, nil},
		{"SnakeCase", "keep snake_case_names", []string{"snake_case_names"}, []string{"<em>"}},
		{"Lists", "- a\n- b\n\n1. one\n2. two", []string{"<ul><li>a</li><li>b</li></ul>", "<ol><li>one</li><li>two</li></ol>"}, nil},
		{"Heading", "## Steps", []string{`<h4 class="md-h2">Steps</h4>`}, nil},
		{"Code", "```\n<b>raw</b>\n```", []string{"<pre><code>&lt;b&gt;raw&lt;/b&gt;</code></pre>"}, nil},
		{"Link", "[list](https://example.com/a?b=1&c=2)", []string{`href="https://example.com/a?b=1&amp;c=2"`, `rel="noopener noreferrer"`, `target="_blank"`, "(opens in a new tab)"}, nil},
		{"Autolink", "<https://example.com>", []string{`href="https://example.com"`}, nil},
		{"Mailto", "[mail](mailto:a@example.com)", []string{`href="mailto:a@example.com"`}, nil},
		{"ScriptEscaped", "<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script>"}},
		{"JavascriptLink", "[x](javascript:alert(1))", []string{"x"}, []string{"href", "javascript:"}},
		{"DataLink", "[x](data:text/html,hi)", nil, []string{"href"}},
		{"RelativeLink", "[x](/inbox)", nil, []string{"href"}},
		{"AttributeBreakout", `[x](https://e.com/" onmouseover="alert(1))`, nil, []string{`" onmouseover`}},
		{"ImageIsText", "![img](https://e.com/a.png)", nil, []string{"<img"}},
		{"Escapes", `\*not em\*`, []string{"*not em*"}, []string{"<em>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// templ may leave a space after a tag where the template breaks a line; HTML collapses it.
			got := strings.ReplaceAll(renderMarkdown(t, tc.src), "> ", ">")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q rendered %q, want %q in it", tc.src, got, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%q rendered %q, must not contain %q", tc.src, got, n)
				}
			}
		})
	}
}

func TestWebMarkdownEmpty(t *testing.T) {
	if blocks := ParseMarkdown(context.Background(), " \n\n "); len(blocks) != 0 {
		t.Fatalf("%d blocks from blank text", len(blocks))
	}
}
