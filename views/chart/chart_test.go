package chart

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

func render(t *testing.T, l Layout) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Figure(l, "Show as table", "No data yet").Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestFigureIsAccessibleSVGWithATable(t *testing.T) {
	c := Chart{ID: "cvc", Title: "Created & completed", Desc: "Per day, <UTC>", CategoryHeader: "Day",
		Categories: []string{"1 Mar", "2 Mar", `<script>alert(1)</script>`},
		Series:     []Series{{Name: "Created", Values: []float64{3, 0, 7}}, {Name: "Completed", Values: []float64{1, 2}}}}
	html := render(t, Lay(c))
	for _, want := range []string{
		`role="img"`, `aria-labelledby="cvc-title cvc-desc"`, `<title id="cvc-title">Created &amp; completed</title>`,
		`<desc id="cvc-desc">Per day, &lt;UTC&gt;</desc>`, `fill="url(#cvc-p1)"`, `<summary>Show as table</summary>`,
		`<th scope="col">Completed</th>`, `<th scope="row">2 Mar</th>`, `<td>7</td>`, `&lt;script&gt;`,
		`<title>2 Mar, Completed: 2</title>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("missing %s in\n%s", want, html)
		}
	}
	if strings.Contains(html, "<script>") || strings.Contains(html, "style=") {
		t.Errorf("unescaped text or inline style in\n%s", html)
	}
}

func TestLayScalesAndLabels(t *testing.T) {
	l := Lay(Chart{ID: "x", Categories: []string{"a", "b"}, Series: []Series{{Name: "n", Values: []float64{5, 10}}}})
	if len(l.Bars) != 2 || l.Bars[1].H <= l.Bars[0].H || l.Bars[1].Y+l.Bars[1].H != l.Bars[0].Y+l.Bars[0].H {
		t.Fatalf("bars %+v: want two on one baseline, the second taller", l.Bars)
	}
	if got := l.Ticks[len(l.Ticks)-1].Text; got != "12" {
		t.Fatalf("top tick %s, want 12 (10 rounded up to whole quarters)", got)
	}
	rows := Lay(Chart{ID: "y", Horizontal: true, Max: 1, Format: func(v float64) string { return "x" },
		Categories: []string{"loan", "hr", "it"}, Series: []Series{{Name: "SLA", Values: []float64{1, 0.5, -3}}}})
	if len(rows.Values) != 3 || rows.Bars[2].W != 0 || rows.Height <= height-1 && rows.Height < marginTop+3*16 {
		t.Fatalf("rows %+v", rows)
	}
	days := make([]string, 30)
	for i := range days {
		days[i] = strconv.Itoa(i + 1)
	}
	week := Lay(Chart{ID: "w", LabelEvery: 7, Categories: days, Series: []Series{{Name: "n", Values: []float64{1}}}})
	var labels []string
	for _, t := range week.Labels {
		labels = append(labels, t.Text)
	}
	if got := strings.Join(labels, " "); got != "2 9 16 23 30" {
		t.Fatalf("labels of 30 days, one a week: %q, want them counted back from the last day", got)
	}
	empty := Lay(Chart{ID: "z", Title: "Nothing", Categories: []string{"a"}, Series: []Series{{Name: "n", Values: []float64{0}}}})
	html := render(t, empty)
	if !empty.Empty || strings.Contains(html, "<svg") || !strings.Contains(html, "No data yet") || !strings.Contains(html, "<table>") {
		t.Fatalf("an all-zero chart: %s", html)
	}
}

// TestRowValuesAreNeverCut: a workflow chart's value text ("90. Perzentil bis 24 Stunden") is
// the number the bar stands for; the drawing widens for it instead of cutting it, and a CSS
// rule shows every width the drawing may take at 1 to 1.25 times that width.
func TestRowValuesAreNeverCut(t *testing.T) {
	long := func(v float64) string { return "bis " + strconv.Itoa(int(v)) + " Stunden" }
	c := Chart{ID: "claim", Horizontal: true, Format: long,
		Categories: []string{"Customer escalation", "Expense report"},
		Series:     []Series{{Name: "Median", Values: []float64{4, 8}}, {Name: "90. Perzentil", Values: []float64{24, 8}}}}
	l := Lay(c)
	for _, v := range l.Values {
		if strings.HasSuffix(v.Text, "…") {
			t.Errorf("value text cut to %q", v.Text)
		}
		if end := v.X + textWidth(v.Text); end > l.Width-right+0.01 {
			t.Errorf("value text %q ends at %.1f, past the drawing's %.1f", v.Text, end, l.Width-right)
		}
	}
	html := render(t, l)
	if want := `class="chart__svg chart__svg--w` + num(l.Width) + `"`; !strings.Contains(html, want) {
		t.Errorf("the drawing is not sized to its width %.1f: want %s", l.Width, want)
	}
	css, err := os.ReadFile("../../static/manage.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []float64{columnsWidth, rowsWidth, rowsWidth + rowsWidthStep, rowsWidth + 2*rowsWidthStep, rowsWidthMax} {
		rule := ".chart__svg--w" + num(w) + " { min-width: " + num(w) + "px; max-width: " + num(w*1.25) + "px; }"
		if !strings.Contains(string(css), rule) {
			t.Errorf("manage.css lacks %s", rule)
		}
	}
}
