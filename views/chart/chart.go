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

// Viewbox size: the SVG scales to its container (width 100%), so it fits a 375 px screen.
const (
	width     = 640.0
	height    = 260.0
	left      = 48.0 // room for the value axis labels
	right     = 12.0
	marginTop = 12.0
	bottom    = 56.0 // room for the category labels and the legend
)

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

// Lay computes the chart's geometry.
func Lay(c Chart) Layout {
	l := Layout{Chart: c, Width: width, Height: height}
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
	// The legend sits under the plot, one entry per series.
	x := left
	for i, s := range c.Series {
		l.Legend = append(l.Legend, Legend{X: x, Y: l.Height - 16, Series: i, Name: s.Name})
		x += 28 + 7*float64(len([]rune(s.Name)))
	}
	return l
}

// layColumns draws categories along x and values up y, with four grid lines.
func (l *Layout) layColumns(top float64) {
	c := l.Chart
	plotW, plotH := width-left-right, height-marginTop-bottom
	n := max(len(c.Categories), 1)
	band := plotW / float64(n)
	gap := math.Min(band*0.2, 6)
	bar := (band - gap) / float64(max(len(c.Series), 1))
	for t := 0; t <= 4; t++ {
		v := top * float64(t) / 4
		y := marginTop + plotH - plotH*float64(t)/4
		l.Grid = append(l.Grid, Line{X1: left, Y1: y, X2: width - right, Y2: y})
		l.Ticks = append(l.Ticks, Text{X: left - 6, Y: y + 4, Anchor: "end", Text: c.format(v)})
	}
	every := max(c.LabelEvery, 1)
	for i, cat := range c.Categories {
		x0 := left + band*float64(i) + gap/2
		for si, s := range c.Series {
			v := value(s, i)
			h := plotH * v / top
			l.Bars = append(l.Bars, Rect{X: x0 + bar*float64(si), Y: marginTop + plotH - h, W: bar, H: h, Series: si,
				Title: cat + ", " + s.Name + ": " + c.format(v)})
		}
		// Labels count back from the last category (today on the dashboard), so the newest
		// bar is always named and no label sits one bar off the end.
		if (len(c.Categories)-1-i)%every == 0 {
			l.Labels = append(l.Labels, Text{X: left + band*(float64(i)+0.5), Y: marginTop + plotH + 16, Anchor: "middle", Text: cat})
		}
	}
}

// layRows draws one band per category (its name above the bars) and values along x; each bar
// carries its value as text.
func (l *Layout) layRows(top float64) {
	c := l.Chart
	const labelH, barH, gap = 16.0, 14.0, 10.0
	band := labelH + barH*float64(max(len(c.Series), 1)) + gap
	l.Height = marginTop + band*float64(max(len(c.Categories), 1)) + bottom
	plotW := width - left - right - 70 // room for the value text after the longest bar
	for t := 0; t <= 4; t++ {
		x := left + plotW*float64(t)/4
		l.Grid = append(l.Grid, Line{X1: x, Y1: marginTop, X2: x, Y2: l.Height - bottom})
		l.Ticks = append(l.Ticks, Text{X: x, Y: l.Height - bottom + 14, Anchor: "middle", Text: c.format(top * float64(t) / 4)})
	}
	for i, cat := range c.Categories {
		y0 := marginTop + band*float64(i)
		l.Labels = append(l.Labels, Text{X: left, Y: y0 + 12, Anchor: "start", Text: cat})
		for si, s := range c.Series {
			v := value(s, i)
			w := plotW * v / top
			y := y0 + labelH + barH*float64(si)
			l.Bars = append(l.Bars, Rect{X: left, Y: y, W: w, H: barH - 2, Series: si, Title: cat + ", " + s.Name + ": " + c.format(v)})
			l.Values = append(l.Values, Text{X: left + w + 4, Y: y + barH - 4, Anchor: "start", Text: s.Name + " " + c.format(v)})
		}
	}
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
