package chart

import (
	"bytes"
	"context"
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
