package vetunit

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// placer converts positions of one unit to positions in the package's own
// files, as the in-process engine does: a file of the package is read as it
// is (its //line directives move nothing); a file the go command generated
// in its work directory (cmd/cgo's output for a cgo file) maps back to the
// package's file through the //line directives cmd/cgo wrote, and an edit
// there is kept only when the text it replaces is the same in the package's
// file.
type placer struct {
	fset   *token.FileSet
	objdir string // the go command's directory for this package's outputs
	src    map[string][]byte
	lines  map[string][]int
}

func newPlacer(fset *token.FileSet, vetxOutput string) *placer {
	return &placer{fset: fset, objdir: filepath.Dir(vetxOutput) + string(filepath.Separator), src: map[string][]byte{}, lines: map[string][]int{}}
}

// generated reports whether a file is one the go command wrote.
func (pl *placer) generated(name string) bool {
	return pl.objdir != string(filepath.Separator) && strings.HasPrefix(name, pl.objdir)
}

func (pl *placer) content(name string) []byte {
	if data, ok := pl.src[name]; ok {
		return data
	}
	data, _ := os.ReadFile(name)
	pl.src[name] = data
	l := []int{0}
	for i, c := range data {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	pl.lines[name] = l
	return data
}

func (pl *placer) offsetOf(name string, line, col int) int {
	data := pl.content(name)
	l := pl.lines[name]
	if data == nil || line < 1 || line > len(l) {
		return -1
	}
	off := l[line-1] + col - 1
	if col < 1 || off > len(data) {
		return -1
	}
	return off
}

func (pl *placer) position(p token.Pos) token.Position {
	if !p.IsValid() {
		return token.Position{}
	}
	raw := pl.fset.PositionFor(p, false)
	if !pl.generated(raw.Filename) {
		return raw
	}
	adj := pl.fset.PositionFor(p, true)
	if adj.Filename != raw.Filename && !pl.generated(adj.Filename) {
		if off := pl.offsetOf(adj.Filename, adj.Line, adj.Column); off >= 0 {
			adj.Offset = off
			return adj
		}
	}
	return raw
}

// edit converts a text edit; one that cannot be placed in the package's
// own file has no File.
func (pl *placer) edit(te analysis.TextEdit) Edit {
	end := te.End
	if !end.IsValid() {
		end = te.Pos
	}
	invalid := Edit{Start: -1, End: -1, New: string(te.NewText)}
	tf := pl.fset.File(te.Pos)
	if tf == nil || tf != pl.fset.File(end) {
		return invalid
	}
	if !pl.generated(tf.Name()) {
		return Edit{File: tf.Name(), Start: tf.Offset(te.Pos), End: tf.Offset(end), New: string(te.NewText)}
	}
	s, e := pl.position(te.Pos), pl.position(end)
	if s.Filename != e.Filename || pl.generated(s.Filename) || e.Offset < s.Offset {
		return invalid
	}
	gen := pl.content(tf.Name())
	orig := pl.content(s.Filename)
	gs, ge := tf.Offset(te.Pos), tf.Offset(end)
	if ge > len(gen) || e.Offset > len(orig) || string(gen[gs:ge]) != string(orig[s.Offset:e.Offset]) {
		return invalid
	}
	return Edit{File: s.Filename, Start: s.Offset, End: e.Offset, New: string(te.NewText)}
}

func (pl *placer) finding(analyzer string, d analysis.Diagnostic) Finding {
	f := Finding{
		Analyzer: analyzer,
		Posn:     pl.position(d.Pos),
		End:      pl.position(d.End),
		Category: d.Category,
		Message:  d.Message,
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, Related{Posn: pl.position(r.Pos), End: pl.position(r.End), Message: r.Message})
	}
	for _, sf := range d.SuggestedFixes {
		fix := Fix{Message: sf.Message, Edits: []Edit{}}
		for _, e := range sf.TextEdits {
			fix.Edits = append(fix.Edits, pl.edit(e))
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

// ownFiles returns the package's own Go files: the files analysed, with a
// file the go command generated replaced by the file its //line directives
// name (cmd/cgo's x.cgo1.go by x.go), or dropped (_cgo_gotypes.go).
func (pl *placer) ownFiles(files []*ast.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		if name := pl.ownFile(f); name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// ownFile returns the package's own file that f is or stands for (the file
// cmd/cgo wrote it from), or "" for a file cmd/cgo wrote from nothing of
// the package's.
func (pl *placer) ownFile(f *ast.File) string {
	name := pl.fset.File(f.FileStart).Name()
	if pl.generated(name) {
		name = pl.fset.PositionFor(f.Name.Pos(), true).Filename
		if pl.generated(name) || pl.content(name) == nil {
			return ""
		}
	}
	return name
}

// ownImports returns the import paths of each of the package's own files,
// as the files spell them.
func (pl *placer) ownImports(files []*ast.File) map[string][]string {
	out := map[string][]string{}
	for _, f := range files {
		name := pl.ownFile(f)
		if name == "" {
			continue
		}
		list := out[name]
		for _, is := range f.Imports {
			if path, err := strconv.Unquote(is.Path.Value); err == nil && !slices.Contains(list, path) {
				list = append(list, path)
			}
		}
		out[name] = list
	}
	return out
}
