package driver

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
)

// Rendering a file's fixes: the edits are applied to the original bytes,
// and only the top-level declarations they touch are formatted. Untouched
// declarations, comments between them, build constraints and the line
// endings (CRLF files stay CRLF) are byte-identical.

// edit is a text edit in byte offsets of one file.
type edit struct {
	start, end int
	text       string
}

// A region is a replacement of [start, end) of the original file by text:
// the rendered file is the original with its regions replaced.
type region struct {
	start, end int
	text       []byte
}

// placed is an applied edit: its range in the original and in the result.
type placed struct {
	origStart, origEnd int
	newStart, newEnd   int
}

// isCRLF reports whether a file's lines end in CRLF (most of them do).
func isCRLF(src []byte) bool {
	crlf := bytes.Count(src, []byte("\r\n"))
	return crlf > 0 && 2*crlf >= bytes.Count(src, []byte("\n"))
}

func toLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

func toCRLF(b []byte) []byte { return bytes.ReplaceAll(toLF(b), []byte("\n"), []byte("\r\n")) }

// sortEdits sorts edits by start; at one offset insertions come before a
// replacement, and insertions keep their order.
func sortEdits(edits []edit) {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		return a.end-a.start == 0 && b.end-b.start > 0
	})
}

// render applies edits to src and formats the declarations they touch. It
// returns the new content and the regions of the original it replaced, or
// an error when the edits overlap or the result does not parse.
func render(name string, src []byte, edits []edit) ([]byte, []region, error) {
	edits = append([]edit(nil), edits...)
	sortEdits(edits)
	crlf := isCRLF(src)
	var buf bytes.Buffer
	buf.Grow(len(src) + len(src)/8)
	var ps []placed
	last := 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(src) {
			return nil, nil, fmt.Errorf("%s: edits overlap or lie outside the file", name)
		}
		buf.Write(src[last:e.start])
		text := []byte(e.text)
		if crlf {
			text = toCRLF(text)
		}
		p := placed{origStart: e.start, origEnd: e.end, newStart: buf.Len()}
		buf.Write(text)
		p.newEnd = buf.Len()
		ps = append(ps, p)
		last = e.end
	}
	buf.Write(src[last:])
	fixed := buf.Bytes()

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, fixed, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("syntax error: %v", err)
	}
	tf := fset.File(f.FileStart)
	hulls := touchedSpans(fixed, declSpans(tf, f, fixed), ps)

	var out bytes.Buffer
	out.Grow(len(fixed))
	var regions []region
	cur := 0 // in fixed
	pi := 0
	for _, h := range hulls {
		// Edits before the hull are regions of their own; those inside it
		// are in its text.
		for ; pi < len(ps) && ps[pi].newStart < h.start; pi++ {
			p := ps[pi]
			regions = append(regions, region{p.origStart, p.origEnd, fixed[p.newStart:p.newEnd]})
		}
		for ; pi < len(ps) && ps[pi].newEnd <= h.end; pi++ {
		}
		origStart, origEnd := mapBack(ps, h.start, true), mapBack(ps, h.end, false)
		text, err := formatSpan(fixed[h.start:h.end], src[origStart:origEnd], ps, h, crlf)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", name, tf.Line(tf.Pos(h.start)), err)
		}
		out.Write(fixed[cur:h.start])
		out.Write(text)
		cur = h.end
		regions = append(regions, region{origStart, origEnd, text})
	}
	for ; pi < len(ps); pi++ {
		p := ps[pi]
		regions = append(regions, region{p.origStart, p.origEnd, fixed[p.newStart:p.newEnd]})
	}
	out.Write(fixed[cur:])
	return out.Bytes(), mergeRegions(regions), nil
}

// mergeRegions sorts regions and drops those that change nothing.
func mergeRegions(rs []region) []region {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].start < rs[j].start })
	out := rs[:0]
	for _, r := range rs {
		if r.start == r.end && len(r.text) == 0 {
			continue
		}
		out = append(out, r)
	}
	return out
}

// mapBack maps an offset of the fixed text to the original. An offset
// inside an edit's new text maps to the edit's start (start) or end.
func mapBack(ps []placed, x int, start bool) int {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].newStart > x }) - 1
	if i < 0 {
		return x
	}
	p := ps[i]
	switch {
	case x >= p.newEnd:
		return p.origEnd + x - p.newEnd
	case start:
		return p.origStart
	default:
		return p.origEnd
	}
}

// A span is a range of whole lines of the fixed text holding one or more
// top-level declarations.
type span struct{ start, end int }

// declSpans returns the line spans of the file's top-level declarations
// (with their doc comments), the package clause and the comments above it
// excluded. Declarations that share a line share a span.
func declSpans(tf *token.File, f *ast.File, src []byte) []span {
	var out []span
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		s := lineStartAt(src, tf.Offset(start))
		e := lineEndAt(src, tf.Offset(d.End()))
		if n := len(out); n > 0 && s < out[n-1].end {
			out[n-1].end = max(out[n-1].end, e)
			continue
		}
		out = append(out, span{s, e})
	}
	return out
}

// lineStartAt returns the offset of the start of the line holding off.
func lineStartAt(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEndAt returns the offset just after the newline that ends the line
// holding off (or the end of the text).
func lineEndAt(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// touchedSpans returns the parts of the fixed text to format: for every
// edit whose new text intersects declarations (an insertion or a deletion:
// whose point is inside one), the lines from the first such declaration to
// the last, and the edit's own lines; overlapping parts are merged. Every
// edit is either inside one part or touches no declaration.
func touchedSpans(fixed []byte, spans []span, ps []placed) []span {
	var out []span
	j := 0
	for _, p := range ps {
		for j < len(spans) && spans[j].end <= p.newStart {
			j++
		}
		h := span{-1, -1}
		for k := j; k < len(spans) && spans[k].start <= p.newEnd; k++ {
			sp := spans[k]
			hit := p.newStart < sp.end && p.newEnd > sp.start || p.newStart == p.newEnd && sp.start < p.newStart && p.newStart < sp.end
			if !hit {
				continue
			}
			if h.start < 0 {
				h.start = sp.start
			}
			h.end = sp.end
		}
		if h.start < 0 {
			continue
		}
		h.start = min(h.start, lineStartAt(fixed, p.newStart))
		if p.newEnd > h.end {
			h.end = lineEndAt(fixed, p.newEnd)
		}
		if n := len(out); n > 0 && h.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}

// formatSpan formats the fixed text of a span. When the original
// declarations were formatted (gofmt would not change them), the span is
// formatted as a whole, so the result is formatted too; otherwise only the
// lines the edits touched take their formatted form.
func formatSpan(fixed, orig []byte, ps []placed, sp span, crlf bool) ([]byte, error) {
	lf := fixed
	if crlf {
		lf = toLF(fixed)
	}
	formatted, err := format.Source(lf)
	if err != nil {
		return nil, fmt.Errorf("syntax error: %v", err)
	}
	origLF := orig
	if crlf {
		origLF = toLF(orig)
	}
	if of, err := format.Source(origLF); err != nil || !bytes.Equal(of, origLF) {
		formatted = keepTouched(lf, formatted, touchedLines(fixed, ps, sp))
	}
	if crlf {
		formatted = toCRLF(formatted)
	}
	return formatted, nil
}

// touchedLines returns the 0-based lines of a span's text that an edit's
// new text is on.
func touchedLines(text []byte, ps []placed, sp span) map[int]bool {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(off int) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > off-sp.start }) - 1
	}
	lines := map[int]bool{}
	k := sort.Search(len(ps), func(i int) bool { return ps[i].newEnd >= sp.start })
	for ; k < len(ps) && ps[k].newStart <= sp.end; k++ {
		p := ps[k]
		s, e := max(p.newStart, sp.start), min(p.newEnd, sp.end)
		if s >= e {
			lines[lineOf(s)] = true // a deletion
			continue
		}
		// The lines that hold a byte of the new text other than the
		// newline that ends the line before it.
		first := lineOf(s)
		if text[s-sp.start] == '\n' {
			first++
		}
		for l := first; l <= lineOf(e-1); l++ {
			lines[l] = true
		}
	}
	return lines
}

// keepTouched returns formatted, except that the changes formatting makes
// to lines no edit touched are undone.
func keepTouched(unformatted, formatted []byte, touched map[int]bool) []byte {
	a, b := splitLines(string(unformatted)), splitLines(string(formatted))
	ops := diffLines(a, b)
	var out bytes.Buffer
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out.WriteString(ops[i].text)
			i++
			continue
		}
		j := i
		var del, ins []diffOp
		for ; j < len(ops) && ops[j].kind != ' '; j++ {
			if ops[j].kind == '-' {
				del = append(del, ops[j])
			} else {
				ins = append(ins, ops[j])
			}
		}
		if len(del) == len(ins) {
			// Line for line: each line takes its formatted form when an
			// edit touched it.
			for k := range del {
				if touched[del[k].ai] {
					out.WriteString(ins[k].text)
				} else {
					out.WriteString(del[k].text)
				}
			}
			i = j
			continue
		}
		hit := false
		for _, op := range ops[i:j] {
			if op.kind == '-' && touched[op.ai] || op.kind == '+' && (touched[op.ai] || touched[op.ai-1]) {
				hit = true
			}
		}
		for _, op := range ops[i:j] {
			if hit && op.kind == '+' || !hit && op.kind == '-' {
				out.WriteString(op.text)
			}
		}
		i = j
	}
	return out.Bytes()
}

// placements turns regions of a content into placements: their ranges in
// the content and in the result.
func placements(regions []region) []placed {
	var out []placed
	delta := 0
	for _, r := range regions {
		p := placed{origStart: r.start, origEnd: r.end, newStart: r.start + delta}
		p.newEnd = p.newStart + len(r.text)
		delta += len(r.text) - (r.end - r.start)
		out = append(out, p)
	}
	return out
}

// mapForward maps an offset of a content to the result of placements ps;
// an offset inside a replaced range maps to the start of its new text.
func mapForward(ps []placed, x int) int {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].origStart > x }) - 1
	if i < 0 {
		return x
	}
	p := ps[i]
	if x >= p.origEnd {
		return p.newEnd + x - p.origEnd
	}
	return p.newStart
}

// compose returns the placements original -> c of a (original -> b) and
// b (b -> c): the changed ranges of both, merged where they meet.
func compose(a, b []placed) []placed {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	// Dirty ranges in the coordinates of the middle content.
	type iv struct{ s, e int }
	var ivs []iv
	for _, p := range a {
		ivs = append(ivs, iv{p.newStart, p.newEnd})
	}
	for _, p := range b {
		ivs = append(ivs, iv{p.origStart, p.origEnd})
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].s < ivs[j].s || ivs[i].s == ivs[j].s && ivs[i].e < ivs[j].e })
	var merged []iv
	for _, v := range ivs {
		if n := len(merged); n > 0 && v.s <= merged[n-1].e {
			merged[n-1].e = max(merged[n-1].e, v.e)
			continue
		}
		merged = append(merged, v)
	}
	fwd := func(x int, start bool) int {
		i := sort.Search(len(b), func(i int) bool { return b[i].origStart > x }) - 1
		if i < 0 {
			return x
		}
		p := b[i]
		switch {
		case x >= p.origEnd:
			return p.newEnd + x - p.origEnd
		case start:
			return p.newStart
		default:
			return p.newEnd
		}
	}
	out := make([]placed, 0, len(merged))
	for _, v := range merged {
		out = append(out, placed{
			origStart: mapBack(a, v.s, true), origEnd: mapBack(a, v.e, false),
			newStart: fwd(v.s, true), newEnd: fwd(v.e, false),
		})
	}
	return out
}

// regionsOf returns the regions of orig that placements replace to make cur.
func regionsOf(orig, cur []byte, ps []placed) []region {
	out := make([]region, 0, len(ps))
	for _, p := range ps {
		out = append(out, region{p.origStart, p.origEnd, cur[p.newStart:p.newEnd]})
	}
	return out
}

// declSpansOf returns the declaration spans of a file's content.
func declSpansOf(name string, src []byte) []span {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	return declSpans(fset.File(f.FileStart), f, src)
}
