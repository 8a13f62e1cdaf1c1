// Package chart lays out the managers' dashboard charts as accessible SVG, server-side and
// without JavaScript: a chart is a title and a description (the SVG's <title> and <desc>,
// role="img"), the shapes, and the same numbers as a table (Table) the page shows in a
// <details> element. Series differ by fill pattern and are labelled, never by colour alone.
// Geometry is computed here in Go; chart.templ only writes it out.
package chart

import (
	"fmt"
	"math"
	"strconv"
)

// Sizes, in the viewBox's units. The drawing is never shown smaller than its viewBox (app's
// manage.css: a minimum width, sideways scrolling below it) nor more than a quarter larger, so a
// unit is 1 to 1.25 CSS pixels and fontSize units are at least 12 px on every screen. Column
// charts (days) are as wide as a phone in landscape; row charts (workflows) fit a 375 px phone.
const (
	columnsWidth  = 480.0
	rowsWidth     = 320.0 // at least; wider when a value text needs it (layRows)
	rowsWidthMax  = 440.0
	rowsWidthStep = 40.0 // a row chart's width is rowsWidth plus whole steps: one CSS class each
	rowsPlotMin   = 80.0 // the bars' room in a row chart, at least
	height        = 240.0
	left          = 40.0 // room for the value axis labels of a column chart
	right         = 8.0
	marginTop     = 12.0
	bottom        = 36.0 // room for the category labels under the columns
	fontSize      = 12.0
	lineH         = 18.0 // a line of text: a legend row, a row chart's category label
	legendGap     = 6.0
	// charW is a generous average advance of a character of the pages' sans-serif at 12 units,
	// bold included (the browser test measures the real boxes): a text laid out by it fits.
	charW = 0.66 * fontSize
)

// textWidth is how wide a text of the chart's font may be, at most.
func textWidth(s string) float64 { return charW * float64(len([]rune(s))) }

// fit shortens s with an ellipsis to at most w units wide; the bar's own <title> and the table
// keep the whole text.
func fit(s string, w float64) string {
	r := []rune(s)
	n := int(w / charW)
	if len(r) <= n {
		return s
	}
	if n < 2 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// Series is one named row of values, one per category.
type Series struct {
	Name   string
	Values []float64
}

// Chart is one chart's content: the numbers and how to say them.
type Chart struct {
	ID         string // unique on the page; prefixes the SVG ids
	Title      string
	Desc       string
	Categories []string
	Series     []Series
	// Format writes a value for labels and the table; default: the integer.
	Format func(float64) string
	// Horizontal draws one band per category with a bar per series (long category names,
	// such as workflows); otherwise columns over the categories (days).
	Horizontal bool
	// LabelEvery labels every n-th category of a column chart (default 1).
	LabelEvery int
	// Max fixes the value axis's top (e.g. 1 for shares); 0 scales to the data.
	Max float64
	// CategoryHeader names the table's first column.
	CategoryHeader string
}

// Rect is a drawn bar.
type Rect struct {
	X, Y, W, H float64
	Series     int    // index of the series: picks the fill pattern
	Title      string // "category, series: value" for the bar's own <title>
}

// Text is a label.
type Text struct {
	X, Y   float64
	Anchor string // start, middle, end
	Text   string
}

// Line is a grid line.
type Line struct{ X1, Y1, X2, Y2 float64 }

// Legend is one legend entry: a swatch with the series's pattern and its name.
type Legend struct {
	X, Y   float64
	Series int
	Name   string
}

// Layout is a chart ready to draw.
type Layout struct {
	Chart
	Width, Height float64
	Bars          []Rect
	Labels        []Text // category labels
	Values        []Text // value labels on horizontal bars
	Ticks         []Text // value axis labels
	Grid          []Line
	Legend        []Legend
	Empty         bool // nothing but zeros: the chart says so instead of drawing
}

// ViewBox is the SVG's viewBox attribute.
func (l Layout) ViewBox() string { return fmt.Sprintf("0 0 %s %s", num(l.Width), num(l.Height)) }

// SizeClass names the CSS rule (manage.css) that shows the drawing at 1 to 1.25 CSS pixels per
// unit of its width, so its 12-unit text is 12 to 15 px; a class, not a style attribute, as
// the pages' Content-Security-Policy allows no inline style.
func (l Layout) SizeClass() string { return "chart__svg--w" + num(l.Width) }

// PatternID names series i's fill pattern.
func (l Layout) PatternID(i int) string { return l.ID + "-p" + strconv.Itoa(i%patterns) }

// Fill is the fill attribute of series i.
func (l Layout) Fill(i int) string { return "url(#" + l.PatternID(i) + ")" }

// TitleID and DescID name the <title> and <desc> for aria-labelledby.
func (l Layout) TitleID() string { return l.ID + "-title" }
func (l Layout) DescID() string  { return l.ID + "-desc" }

// patterns is how many distinct fills there are (solid, hatched, dotted).
const patterns = 3

// Num writes a coordinate compactly.
func Num(f float64) string { return num(f) }

func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// format writes a value with the chart's format.
func (c Chart) format(v float64) string {
	if c.Format != nil {
		return c.Format(v)
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// Table is the chart's numbers as rows: a header row (category header, series names) and one
// row per category with the formatted values.
func (c Chart) Table() (header []string, rows [][]string) {
	header = append(header, c.CategoryHeader)
	for _, s := range c.Series {
		header = append(header, s.Name)
	}
	for i, cat := range c.Categories {
		row := []string{cat}
		for _, s := range c.Series {
			v := 0.0
			if i < len(s.Values) {
				v = s.Values[i]
			}
			row = append(row, c.format(v))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// Lay computes the chart's geometry. Every text is laid out inside the viewBox.
func Lay(c Chart) Layout {
	l := Layout{Chart: c, Width: columnsWidth, Height: height}
	if c.Horizontal {
		l.Width = rowsWidth
	}
	maxV := c.Max
	for _, s := range c.Series {
		for i := range s.Values {
			maxV = math.Max(maxV, value(s, i))
		}
	}
	top := maxV
	if top <= 0 {
		l.Empty = true
		return l
	}
	if c.Max == 0 {
		top = niceCeil(top)
		if c.Format == nil { // counts: grid lines on whole numbers
			top = math.Ceil(top/4) * 4
		}
	}
	if c.Horizontal {
		l.layRows(top)
	} else {
		l.layColumns(top)
	}
	l.layLegend()
	return l
}

// layLegend puts one entry per series under the plot, wrapping to another line where the next
// would not fit, and makes room for it.
func (l *Layout) layLegend() {
	x, y := 4.0, l.Height+lineH-4
	for i, s := range l.Series {
		name := fit(s.Name, l.Width-4-18-right)
		w := 18 + textWidth(name) + 2*legendGap
		if x > 4 && x+w > l.Width-right {
			x, y = 4, y+lineH
		}
		l.Legend = append(l.Legend, Legend{X: x, Y: y, Series: i, Name: name})
		x += w
	}
	l.Height = y + 8
}

// layColumns draws categories along x and values up y, with four grid lines.
func (l *Layout) layColumns(top float64) {
	c := l.Chart
	plotW, plotH := l.Width-left-right, height-marginTop-bottom
	n := max(len(c.Categories), 1)
	band := plotW / float64(n)
	gap := math.Min(band*0.2, 6)
	bar := (band - gap) / float64(max(len(c.Series), 1))
	for t := 0; t <= 4; t++ {
		v := top * float64(t) / 4
		y := marginTop + plotH - plotH*float64(t)/4
		l.Grid = append(l.Grid, Line{X1: left, Y1: y, X2: l.Width - right, Y2: y})
		l.Ticks = append(l.Ticks, Text{X: left - 5, Y: y + 4, Anchor: "end", Text: fit(c.format(v), left-5)})
	}
	every := max(c.LabelEvery, 1)
	room := band * float64(every) // a label may take the width of the columns up to the next
	for i, cat := range c.Categories {
		x0 := left + band*float64(i) + gap/2
		for si, s := range c.Series {
			v := value(s, i)
			h := plotH * v / top
			l.Bars = append(l.Bars, Rect{X: x0 + bar*float64(si), Y: marginTop + plotH - h, W: bar, H: h, Series: si,
				Title: cat + ", " + s.Name + ": " + c.format(v)})
		}
		// Labels count back from the last category (today on the dashboard), so the newest
		// bar is always named and no label sits one bar off the end. A label centred on its
		// column is kept inside the drawing: the last one ends at the right edge.
		if (len(c.Categories)-1-i)%every == 0 {
			text := fit(cat, math.Min(room, l.Width-right))
			x, anchor := left+band*(float64(i)+0.5), "middle"
			if w := textWidth(text); x+w/2 > l.Width-right {
				x, anchor = l.Width-right, "end"
			} else if x-w/2 < 0 {
				x, anchor = 0, "start"
			}
			l.Labels = append(l.Labels, Text{X: x, Y: marginTop + plotH + 17, Anchor: anchor, Text: text})
		}
	}
	l.Height = height
}

// layRows draws one band per category (its name above the bars) and values along x; each bar
// carries its value as text, after the bar, in room kept for the longest value text.
func (l *Layout) layRows(top float64) {
	c := l.Chart
	const barH, gap = 16.0, 10.0
	const x0 = 4.0
	band := lineH + barH*float64(max(len(c.Series), 1)) + gap
	valueRoom := 0.0
	for i := range c.Categories {
		for _, s := range c.Series {
			valueRoom = math.Max(valueRoom, textWidth(s.Name+" "+c.format(value(s, i))))
		}
	}
	// The value texts are the numbers themselves: the drawing widens for the longest rather
	// than cut it (up to rowsWidthMax, past which fit shortens it).
	valueRoom += 6
	need := x0 + right + rowsPlotMin + valueRoom
	l.Width = math.Min(rowsWidth+rowsWidthStep*math.Max(0, math.Ceil((need-rowsWidth)/rowsWidthStep)), rowsWidthMax)
	valueRoom = math.Min(valueRoom, l.Width-x0-right-rowsPlotMin)
	plotW := l.Width - x0 - right - valueRoom
	plotBottom := marginTop + band*float64(max(len(c.Categories), 1))
	for t := 0; t <= 4; t++ {
		x := x0 + plotW*float64(t)/4
		l.Grid = append(l.Grid, Line{X1: x, Y1: marginTop, X2: x, Y2: plotBottom})
		if t%4 != 0 { // the axis names its ends: a narrow plot has no room for five labels
			continue
		}
		anchor, room := "start", plotW/2-4
		if t == 4 {
			anchor, room = "start", l.Width-right-x
		}
		l.Ticks = append(l.Ticks, Text{X: x, Y: plotBottom + 15, Anchor: anchor, Text: fit(c.format(top*float64(t)/4), room)})
	}
	for i, cat := range c.Categories {
		y0 := marginTop + band*float64(i)
		l.Labels = append(l.Labels, Text{X: x0, Y: y0 + 13, Anchor: "start", Text: fit(cat, l.Width-x0-right)})
		for si, s := range c.Series {
			v := value(s, i)
			w := plotW * v / top
			y := y0 + lineH + barH*float64(si)
			l.Bars = append(l.Bars, Rect{X: x0, Y: y, W: w, H: barH - 2, Series: si, Title: cat + ", " + s.Name + ": " + c.format(v)})
			l.Values = append(l.Values, Text{X: x0 + w + 4, Y: y + barH - 4, Anchor: "start",
				Text: fit(s.Name+" "+c.format(v), l.Width-right-(x0+w+4))})
		}
	}
	l.Height = plotBottom + 22
}

func value(s Series, i int) float64 {
	if i < len(s.Values) && s.Values[i] > 0 && !math.IsInf(s.Values[i], 0) && !math.IsNaN(s.Values[i]) {
		return s.Values[i]
	}
	return 0
}

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten, so grid lines fall on round
// numbers.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}
