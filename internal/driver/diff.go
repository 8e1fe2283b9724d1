package driver

import (
	"fmt"
	"sort"
	"strings"
)

// Unified diffs of fixed files, computed from the regions that rendering
// replaced: time and memory are linear in the size of the file plus the
// size of the changes, whatever their number. The output applies with
// git apply and with patch -p1 from the directory the paths are relative
// to.

// change replaces the old lines [from, to) with add.
type change struct {
	from, to int
	add      []string
}

// regionChanges turns regions of src into line changes, minimal within each
// region.
func regionChanges(src []byte, regions []region) []change {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(off int) int { // the line that starts at off
		if off >= len(src) {
			return len(splitLines(string(src)))
		}
		return sort.SearchInts(starts, off)
	}
	var out []change
	for i := 0; i < len(regions); {
		// Whole lines around the region, merged with the regions that
		// share them.
		rs := lineStartAt(src, regions[i].start)
		var text []byte
		text = append(text, src[rs:regions[i].start]...)
		text = append(text, regions[i].text...)
		end := regions[i].end
		i++
		for {
			re := end
			if re > 0 && re < len(src) && src[re-1] != '\n' || re < len(src) && len(text) > 0 && text[len(text)-1] != '\n' {
				re = lineEndAt(src, re)
			}
			if i < len(regions) && regions[i].start < re {
				text = append(text, src[end:regions[i].start]...)
				text = append(text, regions[i].text...)
				end = regions[i].end
				i++
				continue
			}
			text = append(text, src[end:re]...)
			end = re
			break
		}
		a := splitLines(string(src[rs:end]))
		b := splitLines(string(text))
		out = append(out, minimalChanges(lineOf(rs), a, b)...)
	}
	return out
}

// minimalChanges returns the changes that turn lines a (starting at old
// line from) into b: common lines at both ends are left out, the middle is
// diffed with the Myers algorithm (replaced as a whole when it differs in
// more than maxD lines).
func minimalChanges(from int, a, b []string) []change {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	a, b = a[p:len(a)-s], b[p:len(b)-s]
	from += p
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	ops, ok := myers(a, b, 2000)
	if !ok {
		return []change{{from, from + len(a), b}}
	}
	var out []change
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		c := change{from: from + ops[i].ai, to: from + ops[i].ai}
		for ; i < len(ops) && ops[i].kind != ' '; i++ {
			if ops[i].kind == '-' {
				c.to++
			} else {
				c.add = append(c.add, ops[i].text)
			}
		}
		out = append(out, c)
	}
	return out
}

// unifiedDiffOf prints a unified diff, with three lines of context, of src
// and the changes (in order, not overlapping); "" when there are none.
func unifiedDiffOf(oldName, newName string, src []byte, changes []change) string {
	if len(changes) == 0 {
		return ""
	}
	old := splitLines(string(src))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const ctx = 3
	delta := 0 // new line - old line before the current hunk
	line := func(kind byte, text string) {
		out.WriteByte(kind)
		out.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
	for i := 0; i < len(changes); {
		j := i
		for j+1 < len(changes) && changes[j+1].from-changes[j].to <= 2*ctx {
			j++
		}
		start := max(changes[i].from-ctx, 0)
		end := min(changes[j].to+ctx, len(old))
		nNew := end - start
		for _, c := range changes[i : j+1] {
			nNew += len(c.add) - (c.to - c.from)
		}
		oldStart, newStart := start+1, start+delta+1
		if end-start == 0 {
			oldStart--
		}
		if nNew == 0 {
			newStart--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", oldStart, end-start, newStart, nNew)
		at := start
		for _, c := range changes[i : j+1] {
			for ; at < c.from; at++ {
				line(' ', old[at])
			}
			for ; at < c.to; at++ {
				line('-', old[at])
			}
			for _, a := range c.add {
				line('+', a)
			}
			delta += len(c.add) - (c.to - c.from)
		}
		for ; at < end; at++ {
			line(' ', old[at])
		}
		i = j + 1
	}
	return out.String()
}

// unifiedDiff returns a unified diff of two texts, with three lines of
// context, or "" when they are equal.
func unifiedDiff(oldName, newName, a, b string) string {
	return unifiedDiffOf(oldName, newName, []byte(a), minimalChanges(0, splitLines(a), splitLines(b)))
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	text   string
	ai, bi int // line index in a and b where the op starts
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines computes a shortest edit script.
func diffLines(a, b []string) []diffOp {
	ops, _ := myers(a, b, -1)
	return ops
}

// myers computes a shortest edit script with the Myers algorithm, in
// O((N+M)·D) time and O(D²) memory; false when it needs more than maxD
// edits (maxD < 0: no limit).
func myers(a, b []string, maxD int) ([]diffOp, bool) {
	n, m := len(a), len(b)
	limit := n + m
	if maxD >= 0 && maxD < limit {
		limit = maxD
	}
	off := n + m + 1
	v := make([]int, 2*(n+m)+3)
	var trace [][]int // trace[d] = v[off-d .. off+d] before step d
	dFound := -1
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				dFound = d
				break
			}
		}
		if dFound >= 0 {
			break
		}
	}
	if dFound < 0 {
		return nil, false
	}
	at := func(d, k int) int { return trace[d][k+d] }
	var ops []diffOp
	x, y := n, m
	for d := dFound; d > 0; d-- {
		k := x - y
		var prevK int
		if k == -d || (k != d && at(d, k-1) < at(d, k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(d, prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			ops = append(ops, diffOp{' ', a[x], x, y})
		}
		if x == prevX {
			y--
			ops = append(ops, diffOp{'+', b[y], x, y})
		} else {
			x--
			ops = append(ops, diffOp{'-', a[x], x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		ops = append(ops, diffOp{' ', a[x], x, y})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops, true
}
