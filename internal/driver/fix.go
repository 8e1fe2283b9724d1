package driver

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// edit is a text edit in byte offsets of one file.
type edit struct {
	start, end int
	text       string
}

// fileFix is one suggested fix's edits to one file.
type fileFix struct {
	analyzer string
	message  string
	line     int
	edits    []edit
}

// applyFixes applies the first suggested fix of every finding. Fixes whose
// edits overlap an already accepted fix are not applied and are reported
// (run resilint -fix again to apply them on the updated code); identical
// edits from different fixes (two fixes adding the same import) are applied
// once. Every file is written to a temporary file in its directory, then
// renamed over the original, so a failure never leaves a half-written file.
// With -diff, nothing is written and the changes are printed.
func (d *run) applyFixes(found []Finding) error {
	byFile := map[string][]fileFix{}
	seenFix := map[string]bool{}
	for _, f := range found {
		if len(f.Fixes) == 0 {
			continue
		}
		sf := f.Fixes[0]
		perFile := map[string]*fileFix{}
		var order []string
		ok := true
		for _, te := range sf.Edits {
			if te.File == "" || te.Start < 0 || te.End < te.Start {
				ok = false
				break
			}
			name := te.File
			ff := perFile[name]
			if ff == nil {
				ff = &fileFix{analyzer: f.Analyzer, message: sf.Message, line: f.Posn.Line}
				perFile[name] = ff
				order = append(order, name)
			}
			ff.edits = append(ff.edits, edit{te.Start, te.End, string(te.New)})
		}
		if !ok {
			fmt.Fprintf(d.stderr, "resilint: %s:%d: %s fix %q has an invalid edit; not applied\n", f.Posn.Filename, f.Posn.Line, f.Analyzer, sf.Message)
			continue
		}
		for _, name := range order {
			ff := perFile[name]
			sort.Slice(ff.edits, func(i, j int) bool { return ff.edits[i].start < ff.edits[j].start })
			id := name + fmt.Sprint(ff.edits)
			if seenFix[id] {
				continue // the same fix from a test variant of the package
			}
			seenFix[id] = true
			byFile[name] = append(byFile[name], *ff)
		}
	}

	names := make([]string, 0, len(byFile))
	for name := range byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	var conflicts int
	var errs []error
	for _, name := range names {
		fixes := byFile[name]
		sort.SliceStable(fixes, func(i, j int) bool { return fixes[i].edits[0].start < fixes[j].edits[0].start })
		var accepted []edit
		for _, ff := range fixes {
			var add []edit
			clash := false
			for _, e := range ff.edits {
				dup := false
				for _, a := range accepted {
					if a == e {
						dup = true
						break
					}
					if overlaps(a, e) {
						clash = true
						break
					}
				}
				if clash {
					break
				}
				if !dup {
					add = append(add, e)
				}
			}
			if clash {
				conflicts++
				fmt.Fprintf(d.stderr, "resilint: %s:%d: %s fix %q conflicts with another fix and was not applied; run resilint -fix again\n", name, ff.line, ff.analyzer, ff.message)
				continue
			}
			accepted = append(accepted, add...)
		}
		if err := d.rewrite(name, accepted); err != nil {
			errs = append(errs, err)
		}
	}
	if conflicts > 0 {
		errs = append(errs, fmt.Errorf("%d conflicting fixes were not applied", conflicts))
	}
	return errors.Join(errs...)
}

// overlaps reports whether two edits touch the same text. Two insertions at
// the same offset overlap too: their order would be a guess.
func overlaps(a, b edit) bool {
	if a.start == a.end && b.start == b.end {
		return a.start == b.start
	}
	return a.start < b.end && b.start < a.end || (a.start == a.end && b.start < a.start && a.start < b.end) || (b.start == b.end && a.start < b.start && b.start < a.end)
}

// rewrite applies edits to a file and writes it atomically (or prints the
// diff with -diff).
func (d *run) rewrite(name string, edits []edit) error {
	if len(edits) == 0 {
		return nil
	}
	old, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var buf bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end > len(old) {
			return fmt.Errorf("%s: the file changed since it was analyzed; not fixed", name)
		}
		buf.Write(old[last:e.start])
		buf.WriteString(e.text)
		last = e.end
	}
	buf.Write(old[last:])
	fixed, err := format.Source(buf.Bytes())
	if err != nil {
		return fmt.Errorf("%s: the fixes do not produce valid Go (%v); not fixed, please report this", name, err)
	}
	if d.diff {
		fmt.Fprint(d.stdout, unifiedDiff(name+" (old)", name+" (new)", string(old), string(fixed)))
		return nil
	}
	return writeAtomic(name, fixed)
}

// writeAtomic writes data to a temporary file next to name and renames it
// over name, keeping name's permissions.
func writeAtomic(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".resilint-*")
	if err != nil {
		return err
	}
	cleanup := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return cleanup(err)
	}
	if err := tmp.Sync(); err != nil {
		return cleanup(err)
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		return cleanup(err)
	}
	if err := tmp.Close(); err != nil {
		return cleanup(err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return nil
}

// unifiedDiff returns a unified diff of two texts, with three lines of
// context, or "" when they are equal.
func unifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before the change to ctx lines after the
		// last change that is within 2*ctx of the previous one.
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		ax, ay := ops[start].ai, ops[start].bi
		var nx, ny int
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				nx++
			}
			if op.kind != '-' {
				ny++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", ax+1, nx, ay+1, ny)
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
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

// diffLines computes a shortest edit script with the Myers algorithm.
func diffLines(a, b []string) []diffOp {
	n, m := len(a), len(b)
	maxD := n + m
	v := make([]int, 2*maxD+2)
	var trace [][]int
	off := maxD + 1
	var dFound int
outer:
	for dd := 0; dd <= maxD; dd++ {
		snapshot := make([]int, len(v))
		copy(snapshot, v)
		trace = append(trace, snapshot)
		for k := -dd; k <= dd; k += 2 {
			var x int
			if k == -dd || (k != dd && v[off+k-1] < v[off+k+1]) {
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
				dFound = dd
				break outer
			}
		}
	}
	// Backtrack.
	var ops []diffOp
	x, y := n, m
	for dd := dFound; dd > 0; dd-- {
		vv := trace[dd]
		k := x - y
		var prevK int
		if k == -dd || (k != dd && vv[off+k-1] < vv[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vv[off+prevK]
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
	return ops
}
