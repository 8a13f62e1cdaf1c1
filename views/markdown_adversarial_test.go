package views

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/views/i18n"
)

// mdInput is one kind of hostile instructions, generated at any size.
type mdInput struct {
	name string
	gen  func(n int) string
}

// repeatTo repeats unit up to about n bytes.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, max(1, n/len(unit)))
}

// staircase writes lines whose prefix grows by one step per line, up to about n bytes.
func staircase(step, tail string, n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		b.WriteString(strings.Repeat(step, i))
		b.WriteString(tail)
	}
	return b.String()
}

// adversarialInputs are the inputs that made the old renderer quadratic and the ones that make
// goldmark itself superlinear without our limits (deep nesting, unclosed link destinations,
// unmatched delimiters, labels around many nodes), plus unsafe links and bytes a browser must
// never see raw.
var adversarialInputs = []mdInput{
	{"lt", func(n int) string { return repeatTo("<", n) }},
	{"lt-then-gt", func(n int) string { return repeatTo("<", n-1) + ">" }},
	{"bracket", func(n int) string { return repeatTo("[", n) }},
	{"link-open", func(n int) string { return repeatTo("[a](", n) }},
	{"link-angle", func(n int) string { return repeatTo("[a](<", n) }},
	{"link-title", func(n int) string { return repeatTo(`[a](b "`, n) }},
	{"image-open", func(n int) string { return repeatTo("![", n) }},
	{"star-underscore", func(n int) string { return repeatTo("*_", n) }},
	{"emphasis-unmatched", func(n int) string { return repeatTo("*a ", n/2) + repeatTo(" a_", n/2) }},
	{"emphasis-mixed", func(n int) string { return repeatTo("*a_b**c__d", n) }},
	{"label-around-code", func(n int) string {
		return repeatTo("[", n/8) + repeatTo("`a`", 3*n/8) + repeatTo("]", n/8)
	}},
	{"quote-nest", func(n int) string { return repeatTo(">", n) }},
	{"quote-tab", func(n int) string { return repeatTo(">\t", n) }},
	{"quote-staircase", func(n int) string { return staircase(">", " a\n", n) }},
	{"list-nest", func(n int) string { return repeatTo("- ", n) }},
	{"list-staircase", func(n int) string { return staircase("  ", "- a\n", n) }},
	{"quote-list", func(n int) string { return repeatTo("> - 1. ", n) }},
	{"backticks", func(n int) string { return repeatTo("`", n) }},
	{"backtick-runs", func(n int) string { return staircase("`", "a", n) }},
	{"entities", func(n int) string { return repeatTo("&amp;&#x26;&#38;&bogus;&#xFFFFFFFF;&", n) }},
	{"javascript-links", func(n int) string { return repeatTo("[x](javascript:alert(1)) <javascript:alert(1)> ", n) }},
	{"html-attributes", func(n int) string { return repeatTo(`<a b="`, n) }},
	{"lt-lines", func(n int) string { return repeatTo("<\n", n) }},
	{"shortcut-lines", func(n int) string { return repeatTo("[a]\n", n) }},
	{"reference-definitions", func(n int) string { return repeatTo("[a]: <b> 'c'\n", n) }},
	{"nul", func(n int) string { return repeatTo("\x00", n) }},
	{"controls", func(n int) string { return repeatTo("\x01\x1b\x7f\r\u0085", n) }},
	{"invalid-utf8", func(n int) string { return repeatTo("\xff\xfe\xc0*", n) }},
	{"prose", func(n int) string {
		return repeatTo("Check the **amount** against the [supplier list](https://example.com/s?a=1&b=2) and `ref_id`.\n"+
			"- compare *dates*\n- call <mailto:ap@example.com>\n\n## Next\n\n```\ncode <b>\n```\n\n", n)
	}},
}

// renderBlocks renders parsed instructions the way the task page does.
func renderBlocks(t testing.TB, blocks []Block) string {
	t.Helper()
	var buf bytes.Buffer
	c := Chrome{T: i18n.English(), Now: time.Now()}
	if err := Markdown(blocks, c).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// markdownTags are the only elements the Markdown component may emit.
var markdownTags = map[string]bool{
	"p": true, "br": true, "strong": true, "em": true, "code": true, "pre": true, "ul": true, "ol": true,
	"li": true, "a": true, "span": true, "h3": true, "h4": true, "h5": true,
}

// markdownAttrs are the only attributes the Markdown component may emit.
var markdownAttrs = map[string]bool{"href": true, "rel": true, "target": true, "class": true}

// checkSafeHTML fails unless out holds only the Markdown component's own elements and
// attributes, every link is http, https or mailto, and no byte the browser treats as markup
// came from the source.
func checkSafeHTML(t testing.TB, out string) {
	t.Helper()
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Fatalf("output has a raw <script: %.200q", out)
	}
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("output does not tokenize: %v", z.Err())
			}
			return
		case html.CommentToken, html.DoctypeToken:
			t.Fatalf("output has a comment or doctype: %.200q", z.Token().String())
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !markdownTags[tok.Data] {
				t.Fatalf("output has a <%s> element", tok.Data)
			}
			for _, a := range tok.Attr {
				if !markdownAttrs[a.Key] {
					t.Fatalf("output has a %s attribute on <%s>", a.Key, tok.Data)
				}
				if a.Key == "href" && !safeScheme(a.Val) {
					t.Fatalf("output links to %q", a.Val)
				}
			}
		}
	}
}

// safeScheme reports whether href, as the browser reads it, is http, https or mailto.
func safeScheme(href string) bool {
	h := strings.ToLower(strings.TrimLeft(href, "\x00\t\n\f\r "))
	return strings.HasPrefix(h, "https://") || strings.HasPrefix(h, "http://") || strings.HasPrefix(h, "mailto:")
}

// outputUnits counts blocks, list items and marked-up runs: the pieces whose markup costs more
// than the text they hold.
func outputUnits(blocks []Block) int {
	n := 0
	for _, b := range blocks {
		n++
		n += len(b.Items)
		for _, runs := range append(append([][]Inline{}, b.Lines...), b.Items...) {
			for _, r := range runs {
				if r.Kind != InlineText {
					n++
				}
			}
		}
	}
	return n
}

// TestWebMarkdownAdversarial renders every adversarial kind at the 256 KiB limit: the page
// holds no markup of the source's and no unsafe link, stays within a constant factor of the
// source's size, and the parse did a constant amount of work per byte (see
// TestWebMarkdownLinearWork). The kinds run in parallel, which also has the race detector
// check that the one shared goldmark parser is safe for concurrent requests.
func TestWebMarkdownAdversarial(t *testing.T) {
	const size = 256 << 10
	for _, in := range adversarialInputs {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			src := in.gen(size)
			blocks, st := parseMarkdown(context.Background(), src)
			checkWork(t, len(src), blocks, st)
			out := renderBlocks(t, blocks)
			checkSafeHTML(t, out)
			// Escaping turns a byte into at most 6 (&#34;); each unit adds at most a link's markup.
			if limit := 6*len(src) + 256*maxUnits; len(out) > limit {
				t.Fatalf("%d bytes of instructions rendered %d bytes, want at most %d", len(src), len(out), limit)
			}
			if got := outputUnits(blocks); got > maxUnits+1 {
				t.Fatalf("%d output units, want at most %d", got, maxUnits+1)
			}
		})
	}
}

func TestWebMarkdownUnsafeLinks(t *testing.T) {
	for _, src := range []string{
		"[x](javascript:alert(1))",
		"[x](JaVaScRiPt:alert(1))",
		"[x](  javascript:alert(1))",
		"[x](<javascript:alert(1)>)",
		"[x](<java script:alert(1)>)",
		"[x](java&#x73;cript:alert(1))",
		"[x](&#106;avascript:alert(1))",
		"[x](javascript&colon;alert(1))",
		"[x](java\\script:alert(1))",
		"[x](java\tscript:alert(1))",
		"[x](java\x00script:alert(1))",
		"[x](\x01javascript:alert(1))",
		"[x](vbscript:msgbox(1))",
		"[x](data:text/html;base64,PHNjcmlwdD4=)",
		"[x](file:///etc/passwd)",
		"[x](//evil.example.com)",
		"[x](https:javascript:alert(1))",
		"[x](ｊavascript:alert(1))",
		"![x](javascript:alert(1))",
		"<javascript:alert(1)>",
		"<JAVASCRIPT:alert(1)>",
		"[x]\n\n[x]: javascript:alert(1)",
		"[x][r]\n\n[r]: &#106;avascript:alert(1)",
	} {
		t.Run(fmt.Sprintf("%q", src), func(t *testing.T) {
			out := renderBlocks(t, parseForTest(t, src))
			checkSafeHTML(t, out)
			if strings.Contains(out, "href") {
				t.Fatalf("%q rendered a link: %s", src, out)
			}
		})
	}
}

func TestWebMarkdownSafeLinks(t *testing.T) {
	for _, tc := range []struct{ src, href string }{
		{"[x](HTTPS://Example.com/a)", "https://Example.com/a"},
		{"[x](https://e.com/a\\_b)", "https://e.com/a_b"},
		{"[x](https://e.com/?q=&amp;)", "https://e.com/?q=&amp;"},
		{"[x](<https://e.com/a b>)", "https://e.com/a%20b"},
		{"[x][r]\n\n[r]: https://e.com/ref", "https://e.com/ref"},
		{"<ap@example.com>", "mailto:ap@example.com"},
		{"![logo](https://e.com/l.png)", "https://e.com/l.png"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			out := renderBlocks(t, parseForTest(t, tc.src))
			checkSafeHTML(t, out)
			if want := `href="` + tc.href + `"`; !strings.Contains(out, want) {
				t.Fatalf("%q rendered %s, want %s", tc.src, out, want)
			}
		})
	}
}

func TestWebMarkdownHostileBytes(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"NUL", "a\x00b", "a\uFFFDb"},
		{"Control", "a\x01\x1b\x7fb", "a\uFFFD\uFFFD\uFFFDb"},
		{"C1Control", "a\u0085b", "a\uFFFDb"},
		{"InvalidUTF8", "a\xff\xfeb", "a\uFFFDb"},
		{"CR", "a\rb", "a<br>b"},
		{"EntityNUL", "a&#0;b", "a\uFFFDb"},
		{"EntityControl", "a&#1;b", "a\uFFFDb"},
		{"EntityOutOfRange", "a&#x110000;b", "a\uFFFDb"},
		{"Entities", "&lt;b&gt; &amp; &copy; &#x41;", "&lt;b&gt; &amp; © A"},
		{"HTMLComment", "a <!-- b --> c", "a &lt;!-- b --&gt; c"},
		{"HTMLBlock", "<div onclick=\"x()\">\n*hi*\n</div>", "&lt;div onclick=&#34;x()&#34;&gt;<br>*hi*<br>&lt;/div&gt;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := renderBlocks(t, parseForTest(t, tc.src))
			checkSafeHTML(t, out)
			if got := strings.ReplaceAll(out, "> ", ">"); !strings.Contains(got, tc.want) {
				t.Fatalf("%q rendered %q, want %q in it", tc.src, got, tc.want)
			}
		})
	}
}
