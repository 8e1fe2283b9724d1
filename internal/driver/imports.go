package driver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// Imports that fixes add are placed by the driver, as goimports places
// them: a standard-library import in the group of standard-library
// imports, another in the group whose paths share the longest prefix with
// it, in sorted position; a new group when there is none of its kind. Two
// fixes that each add an import therefore never conflict.

// An importSpec is one import a fix adds.
type importSpec struct {
	name, path string // name "" for the default name
}

func (s importSpec) text() string {
	if s.name != "" {
		return s.name + " " + strconv.Quote(s.path)
	}
	return strconv.Quote(s.path)
}

// importStd reports whether an import path is of the standard library (its
// first element has no dot), goimports' first group.
func importStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// A fileImports is the import structure of an original file.
type fileImports struct {
	fset  *token.FileSet
	file  *ast.File // parsed with ImportsOnly
	src   []byte
	decls []*ast.GenDecl
}

func parseImports(name string, src []byte) *fileImports {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || f == nil {
		return nil
	}
	fi := &fileImports{fset: fset, file: f, src: src}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			fi.decls = append(fi.decls, gd)
		}
	}
	return fi
}

func (fi *fileImports) off(p token.Pos) int { return fi.fset.File(p).Offset(p) }

// inImportArea reports whether an insertion at off is where a fix adds an
// import: inside an import declaration, at the start of one, or at the end
// of the package name (a file without imports).
func (fi *fileImports) inImportArea(off int) bool {
	if off == fi.off(fi.file.Name.End()) {
		return true
	}
	for _, gd := range fi.decls {
		if off == fi.off(gd.Pos()) || gd.Lparen.IsValid() && fi.off(gd.Lparen) < off && off <= fi.off(gd.Rparen) {
			return true
		}
	}
	return false
}

// importEdit recognizes an edit that only adds imports: an insertion in the
// import area whose text is import declarations or import specs.
func (fi *fileImports) importEdit(e edit) ([]importSpec, bool) {
	if fi == nil || e.start != e.end || strings.TrimSpace(e.text) == "" || !fi.inImportArea(e.start) {
		return nil, false
	}
	text := strings.TrimSpace(e.text)
	src := "package p\n" + text + "\n"
	if !strings.HasPrefix(text, "import") {
		src = "package p\nimport (\n" + text + "\n)\n"
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil || len(f.Comments) > 0 || len(f.Imports) == 0 {
		return nil, false
	}
	// Only import declarations, nothing after them.
	full, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil || len(full.Decls) != len(f.Decls) {
		return nil, false
	}
	var out []importSpec
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return nil, false
		}
		s := importSpec{path: p}
		if is.Name != nil {
			s.name = is.Name.Name
		}
		out = append(out, s)
	}
	return out, true
}

// has reports whether the file already imports s.
func (fi *fileImports) has(s importSpec) bool {
	for _, is := range fi.file.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := ""
		if is.Name != nil {
			name = is.Name.Name
		}
		if p == s.path && name == s.name {
			return true
		}
	}
	return false
}

// plan returns the edits that add specs to the file.
func (fi *fileImports) plan(specs []importSpec) []edit {
	var add []importSpec
	seen := map[importSpec]bool{}
	for _, s := range specs {
		if !seen[s] && !fi.has(s) {
			seen[s] = true
			add = append(add, s)
		}
	}
	if len(add) == 0 {
		return nil
	}
	sort.Slice(add, func(i, j int) bool { return add[i].path < add[j].path })
	var block *ast.GenDecl
	for _, gd := range fi.decls {
		if gd.Lparen.IsValid() && len(gd.Specs) > 0 {
			block = gd
			break
		}
	}
	switch {
	case block != nil:
		return fi.planBlock(block, add)
	case len(fi.decls) > 0:
		return fi.planSingle(fi.decls[len(fi.decls)-1], add)
	default:
		// No imports: a declaration after the package clause.
		at := lineEndAt(fi.src, fi.off(fi.file.Name.End())) - 1
		if at < 0 || fi.src[at] != '\n' {
			at = len(fi.src)
		} else if at > 0 && fi.src[at-1] == '\r' {
			at--
		}
		return []edit{{at, at, "\n\n" + importDecl(nil, add)}}
	}
}

// importDecl returns an import declaration of the given specs (existing
// spec lines, already formatted, and new specs), grouped.
func importDecl(existing []string, add []importSpec) string {
	if len(existing) == 0 && len(add) == 1 {
		return "import " + add[0].text()
	}
	type line struct {
		std  bool
		path string
		text string
	}
	var lines []line
	for _, e := range existing {
		p := e
		if i := strings.IndexByte(e, '"'); i >= 0 {
			p, _, _ = strings.Cut(e[i+1:], `"`)
		}
		lines = append(lines, line{importStd(p), p, e})
	}
	for _, s := range add {
		lines = append(lines, line{importStd(s.path), s.path, s.text()})
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].std != lines[j].std {
			return lines[i].std
		}
		return lines[i].path < lines[j].path
	})
	var b strings.Builder
	b.WriteString("import (\n")
	for i, l := range lines {
		if i > 0 && l.std != lines[i-1].std {
			b.WriteString("\n")
		}
		b.WriteString("\t" + l.text + "\n")
	}
	b.WriteString(")")
	return b.String()
}

// planSingle turns a one-spec import declaration (import "fmt") into a
// block with the new specs.
func (fi *fileImports) planSingle(gd *ast.GenDecl, add []importSpec) []edit {
	start := fi.off(gd.Pos())
	end := fi.off(gd.End())
	// A comment after the spec on its line moves into the block with it.
	lineEnd := lineEndAt(fi.src, end)
	rest := bytes.TrimRight(fi.src[end:lineEnd], "\r\n")
	spec := string(fi.src[fi.off(gd.Specs[0].Pos()):end])
	if t := bytes.TrimSpace(rest); len(t) > 0 && bytes.HasPrefix(t, []byte("//")) {
		spec += " " + string(t)
		end += len(rest)
	}
	return []edit{{start, end, importDecl([]string{spec}, add)}}
}

// planBlock adds specs to an import block, each in its group.
func (fi *fileImports) planBlock(gd *ast.GenDecl, add []importSpec) []edit {
	type group struct {
		specs []*ast.ImportSpec
		std   bool
	}
	var groups []*group
	for i, s := range gd.Specs {
		is := s.(*ast.ImportSpec)
		if i == 0 || fi.blankBetween(gd.Specs[i-1].End(), is.Pos()) {
			p, _ := strconv.Unquote(is.Path.Value)
			groups = append(groups, &group{std: importStd(p)})
		}
		g := groups[len(groups)-1]
		g.specs = append(g.specs, is)
	}
	indent := fi.indentOf(gd.Specs[0].Pos())
	pathOf := func(is *ast.ImportSpec) string { p, _ := strconv.Unquote(is.Path.Value); return p }
	type ins struct {
		at    int
		order int // at one offset: into a group first, then new groups
		text  string
	}
	var inserts []ins
	var newStd, newOther []importSpec
	for _, s := range add {
		std := importStd(s.path)
		var best *group
		bestLen := -1
		for _, g := range groups {
			if g.std != std {
				continue
			}
			for _, is := range g.specs {
				if n := commonPrefix(pathOf(is), s.path); n > bestLen {
					best, bestLen = g, n
				}
			}
		}
		if best == nil {
			if std {
				newStd = append(newStd, s)
			} else {
				newOther = append(newOther, s)
			}
			continue
		}
		// Before the first spec of the group that sorts after it, else
		// after the group's last spec.
		at := -1
		for _, is := range best.specs {
			if pathOf(is) > s.path {
				at = lineStartAt(fi.src, fi.off(is.Pos()))
				break
			}
		}
		if at < 0 {
			at = lineEndAt(fi.src, fi.off(best.specs[len(best.specs)-1].End()))
		}
		inserts = append(inserts, ins{at, 0, indent + s.text() + "\n"})
	}
	if len(newStd) > 0 {
		at := lineStartAt(fi.src, fi.off(groups[0].specs[0].Pos()))
		var b strings.Builder
		for _, s := range newStd {
			b.WriteString(indent + s.text() + "\n")
		}
		b.WriteString("\n")
		inserts = append(inserts, ins{at, -1, b.String()})
	}
	if len(newOther) > 0 {
		last := groups[len(groups)-1]
		at := lineEndAt(fi.src, fi.off(last.specs[len(last.specs)-1].End()))
		var b strings.Builder
		b.WriteString("\n")
		for _, s := range newOther {
			b.WriteString(indent + s.text() + "\n")
		}
		inserts = append(inserts, ins{at, 1, b.String()})
	}
	sort.SliceStable(inserts, func(i, j int) bool {
		if inserts[i].at != inserts[j].at {
			return inserts[i].at < inserts[j].at
		}
		return inserts[i].order < inserts[j].order
	})
	var out []edit
	for _, in := range inserts {
		if n := len(out); n > 0 && out[n-1].start == in.at {
			out[n-1].text += in.text
			continue
		}
		out = append(out, edit{in.at, in.at, in.text})
	}
	return out
}

// blankBetween reports whether a blank line separates two positions.
func (fi *fileImports) blankBetween(a, b token.Pos) bool {
	// The first and last elements are the rest of a's line and the text
	// before b on its line.
	lines := bytes.Split(fi.src[fi.off(a):fi.off(b)], []byte("\n"))
	for i := 1; i < len(lines)-1; i++ {
		if len(bytes.TrimSpace(lines[i])) == 0 {
			return true
		}
	}
	return false
}

// indentOf returns the white space before pos on its line.
func (fi *fileImports) indentOf(pos token.Pos) string {
	off := fi.off(pos)
	s := lineStartAt(fi.src, off)
	ind := fi.src[s:off]
	if len(bytes.TrimSpace(ind)) > 0 {
		return "\t"
	}
	return string(ind)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// hasPath reports whether the file imports path.
func (fi *fileImports) hasPath(path string) bool {
	for _, is := range fi.file.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == path {
			return true
		}
	}
	return false
}

// remove returns the edits that delete the file's imports of paths: the
// spec's lines, or the whole declaration when it is the only spec.
func (fi *fileImports) remove(paths []string) []edit {
	var out []edit
	for _, path := range paths {
		for _, gd := range fi.decls {
			for _, s := range gd.Specs {
				is := s.(*ast.ImportSpec)
				if p, _ := strconv.Unquote(is.Path.Value); p != path {
					continue
				}
				var start, end token.Pos = is.Pos(), is.End()
				if is.Doc != nil {
					start = is.Doc.Pos()
				}
				if !gd.Lparen.IsValid() || len(gd.Specs) == 1 {
					start, end = gd.Pos(), gd.End()
					if gd.Doc != nil {
						start = gd.Doc.Pos()
					}
				}
				out = append(out, edit{lineStartAt(fi.src, fi.off(start)), lineEndAt(fi.src, fi.off(end)), ""})
			}
		}
	}
	return out
}
