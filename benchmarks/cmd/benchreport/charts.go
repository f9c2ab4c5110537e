// This file draws the charts of the report as SVG files with gonum/plot.
//
// A group of named cases (BenchmarkSingle: static, param5, ...) gets one
// horizontal bar chart per case, a bar per router, each labelled with its
// median. A group of sized cases (BenchmarkGrowth/static: routes=10 ...
// routes=100000) gets one line chart per unit that is not B/op or
// allocs/op, with a line per router. An axis becomes logarithmic when its
// values span more than a factor of logSpread, so that a router ten times
// slower than the others does not flatten them into the axis.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// logSpread is the ratio of the largest to the smallest value above which
// an axis is logarithmic.
const logSpread = 20

// imgDir is the directory of the charts, relative to the output directory.
const imgDir = "img"

// errNoData reports that a chart would have no positive value to show,
// so that it is left out.
var errNoData = errors.New("no positive value to draw")

// A chart is an SVG file drawn for a group.
type chart struct {
	File  string // relative to the output directory, with slashes: "img/single-param5.svg"
	Title string
}

// routerColors gives each known router a color that keeps across charts.
var routerColors = map[string]color.RGBA{
	"cairn":           {0x1f, 0x77, 0xb4, 0xff},
	"cairn-pathvalue": {0x17, 0xbe, 0xcf, 0xff},
	"servemux":        {0x7f, 0x7f, 0x7f, 0xff},
	"httprouter":      {0xff, 0x7f, 0x0e, 0xff},
	"chi":             {0x2c, 0xa0, 0x2c, 0xff},
	"gorilla":         {0xd6, 0x27, 0x28, 0xff},
	"echo":            {0x94, 0x67, 0xbd, 0xff},
	"gin":             {0x8c, 0x56, 0x4b, 0xff},
	"bunrouter":       {0xe3, 0x77, 0xc2, 0xff},
	"httptreemux":     {0xbc, 0xbd, 0x22, 0xff},
}

// routerColor returns the color of router r.
func routerColor(r string) color.Color {
	if c, ok := routerColors[r]; ok {
		return c
	}
	return color.Black
}

// glyphs tell the lines of a line chart apart without color.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

func init() {
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// chartMaker draws charts into a directory and names their files.
type chartMaker struct {
	dir  string          // the output directory
	used map[string]bool // file names already given
}

// drawCharts draws the charts of every group into outDir/img and returns
// them by group.
func drawCharts(gs []*group, outDir string) (map[*group][]chart, error) {
	if err := os.MkdirAll(filepath.Join(outDir, imgDir), 0o755); err != nil {
		return nil, fmt.Errorf("benchreport: %w", err)
	}
	cm := &chartMaker{dir: outDir, used: map[string]bool{}}
	charts := map[*group][]chart{}
	for _, g := range gs {
		var err error
		charts[g], err = cm.groupCharts(g)
		if err != nil {
			return nil, err
		}
	}
	return charts, nil
}

// groupCharts draws the charts of one group.
func (cm *chartMaker) groupCharts(g *group) ([]chart, error) {
	var charts []chart
	add := func(name, title string, draw func(file string) error) error {
		ch := chart{File: cm.fileName(name), Title: title}
		err := draw(filepath.Join(cm.dir, filepath.FromSlash(ch.File)))
		if err == errNoData {
			return nil
		}
		if err != nil {
			return fmt.Errorf("benchreport: drawing %s: %w", ch.File, err)
		}
		charts = append(charts, ch)
		return nil
	}
	if g.Numeric() {
		for _, unit := range g.Suite.Units {
			if unit == "B/op" || unit == "allocs/op" {
				continue
			}
			title := fmt.Sprintf("%s: %s by %s", g.Title(), unit, g.Key)
			err := add(g.Title()+"-"+unit, title, func(file string) error {
				return lineChart(file, title, g, unit)
			})
			if err != nil {
				return nil, err
			}
		}
		return charts, nil
	}
	if !g.Suite.HasUnit("ns/op") {
		return nil, nil
	}
	for i, c := range g.Cases {
		title := g.Suite.Name + "/" + c + ": time per op"
		if c == "" {
			title = g.Suite.Name + ": time per op"
		}
		name := g.Suite.Name + "-" + c
		if c == "" {
			name = g.Suite.Name
		}
		err := add(name, title, func(file string) error {
			return barChart(file, title, g.Suite, g.Cases[i], "ns/op")
		})
		if err != nil {
			return nil, err
		}
	}
	return charts, nil
}

// fileName returns a new file name for a chart, made from name: "img/growth-static-ns-op.svg".
func (cm *chartMaker) fileName(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	base := b.String()
	if base == "" {
		base = "chart"
	}
	f := base
	for i := 2; cm.used[f]; i++ {
		f = fmt.Sprintf("%s-%d", base, i)
	}
	cm.used[f] = true
	return imgDir + "/" + f + ".svg"
}

// barChart draws the medians of unit of every router of the suite on case c
// as horizontal bars, cairn at the top, into file.
func barChart(file, title string, s *Suite, c, unit string) error {
	var bars hbars
	bars.unit = unit
	// The Y axis grows upwards: list the routers bottom to top.
	for i := len(s.Routers) - 1; i >= 0; i-- {
		r := s.Routers[i]
		st, ok := s.Stat(c, r, unit)
		v := math.NaN()
		if ok {
			v = st.Median
		}
		bars.names = append(bars.names, r)
		bars.values = append(bars.values, v)
	}
	lo, hi, ok := positiveRange(bars.values)
	if !ok {
		return errNoData
	}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = unit + logLabel(lo, hi)
	p.Add(&bars)
	p.NominalY(bars.names...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(bars.names))-0.4
	if hi/lo > logSpread {
		p.X.Scale = plot.LogScale{}
		p.X.Min = floorPow10(lo / 2) // the shortest bar spans at least a factor of 2
		p.X.Max = hi * 4             // room for the labels
		p.X.Tick.Marker = unitTicks{plot.LogTicks{Prec: -1}, unit}
	} else {
		p.X.Min, p.X.Max = 0, hi*1.25
		p.X.Tick.Marker = unitTicks{plot.DefaultTicks{}, unit}
	}
	p.X.Padding = 0
	h := vg.Length(len(bars.names))*0.3*vg.Inch + 1.2*vg.Inch
	return saveSVG(file, 7*vg.Inch, h, func(dc draw.Canvas) { p.Draw(dc) })
}

// hbars is a plotter of horizontal bars, one per name at y = 0, 1, ...,
// each labelled with its value. Unlike plotter.BarChart it starts its bars
// at the left of the X axis, so that it works on a logarithmic axis. A NaN
// value is drawn as the label "n/a".
type hbars struct {
	names  []string
	values []float64
	unit   string
}

// Plot implements plot.Plotter.
func (b *hbars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	height := (trY(1) - trY(0)) * 0.7
	sty := p.X.Tick.Label
	sty.XAlign, sty.YAlign = text.XLeft, text.YCenter
	x0 := trX(p.X.Min)
	for i, v := range b.values {
		y := trY(float64(i))
		label := "n/a"
		x1 := x0
		if !math.IsNaN(v) {
			x1 = trX(math.Max(v, p.X.Min))
			rect := []vg.Point{{X: x0, Y: y - height/2}, {X: x1, Y: y - height/2}, {X: x1, Y: y + height/2}, {X: x0, Y: y + height/2}}
			c.FillPolygon(routerColor(b.names[i]), c.ClipPolygonXY(rect))
			label = formatValue(v, b.unit)
		}
		c.FillText(sty, vg.Point{X: x1 + 3, Y: y}, label)
	}
}

// DataRange implements plot.DataRanger.
func (b *hbars) DataRange() (xmin, xmax, ymin, ymax float64) {
	_, hi, _ := positiveRange(b.values)
	return 0, hi, 0, float64(len(b.values) - 1)
}

// lineChart draws unit against the group's sizes, a line per router, into
// file, with the legend to the right of the plot.
func lineChart(file, title string, g *group, unit string) error {
	p := plot.New()
	p.Title.Text = title
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true

	var all []float64
	for i, r := range g.Suite.Routers {
		var xys plotter.XYs
		for j, c := range g.Cases {
			if st, ok := g.Suite.Stat(c, r, unit); ok {
				xys = append(xys, plotter.XY{X: g.X[j], Y: st.Median})
				all = append(all, st.Median)
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return err
		}
		line.Color = routerColor(r)
		line.Width = vg.Points(1.2)
		if r == reference {
			line.Width = vg.Points(2.5)
		}
		points.Color = routerColor(r)
		points.Shape = glyphs[i%len(glyphs)]
		points.Radius = vg.Points(3)
		p.Add(line, points)
		legend.Add(r, line, points)
	}
	lo, hi, ok := positiveRange(all)
	if !ok {
		return errNoData
	}
	p.X.Label.Text = g.Key + logLabel(g.X[0], g.X[len(g.X)-1])
	p.Y.Label.Text = unit + logLabel(lo, hi)
	if g.X[len(g.X)-1]/g.X[0] > logSpread {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = unitTicks{plot.LogTicks{Prec: -1}, ""}
	}
	if hi/lo > logSpread && !slices.ContainsFunc(all, func(v float64) bool { return v <= 0 }) {
		p.Y.Scale = plot.LogScale{}
		p.Y.Min = floorPow10(lo) // so that the lowest line has a labelled tick below it
		p.Y.Tick.Marker = unitTicks{plot.LogTicks{Prec: -1}, unit}
	} else {
		p.Y.Min = 0
		p.Y.Tick.Marker = unitTicks{plot.DefaultTicks{}, unit}
	}

	const legendWidth = 1.5 * vg.Inch
	return saveSVG(file, 8*vg.Inch, 4.5*vg.Inch, func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
		legend.Draw(draw.Crop(dc, 8*vg.Inch-legendWidth+10, 0, 0, -30))
	})
}

// logLabel returns " (log scale)" if values from lo to hi get a
// logarithmic axis.
func logLabel(lo, hi float64) string {
	if lo > 0 && hi/lo > logSpread {
		return " (log scale)"
	}
	return ""
}

// floorPow10 returns the largest power of 10 at or below v > 0.
func floorPow10(v float64) float64 {
	return math.Pow(10, math.Floor(math.Log10(v)))
}

// positiveRange returns the smallest positive and the largest value of vs,
// ignoring NaN, and whether there was a positive value.
func positiveRange(vs []float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) {
			continue
		}
		hi = math.Max(hi, v)
		if v > 0 {
			lo = math.Min(lo, v)
			ok = true
		}
	}
	return lo, hi, ok
}

// unitTicks labels the major ticks of another ticker with values formatted
// for their unit: "10 ns", "1 µs".
type unitTicks struct {
	ticker plot.Ticker
	unit   string
}

// Ticks implements plot.Ticker.
func (t unitTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.ticker.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = trimZeros(formatValue(ticks[i].Value, t.unit))
		}
	}
	return ticks
}

// trimZeros removes the zeros that end the fraction of a formatted number,
// and then a trailing decimal point: "40.0 ns" becomes "40 ns", "1.50k"
// becomes "1.5k".
func trimZeros(s string) string {
	end := strings.IndexFunc(s, func(c rune) bool { return c != '-' && c != '.' && (c < '0' || c > '9') })
	if end < 0 {
		end = len(s)
	}
	num := s[:end]
	if !strings.Contains(num, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(num, "0"), ".") + s[end:]
}

// saveSVG draws an SVG image of the given size with draw and writes it to
// file. The fonts it names fall back to the metrically compatible fonts
// that browsers have.
func saveSVG(file string, w, h vg.Length, drawFn func(draw.Canvas)) error {
	c := vgsvg.New(w, h)
	drawFn(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	svg := bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;"))
	return os.WriteFile(file, svg, 0o644)
}
