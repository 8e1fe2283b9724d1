package analysisutil

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Format prints a node as Go source.
func Format(fset *token.FileSet, n ast.Node) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, n); err != nil {
		return ""
	}
	return buf.String()
}

// FileOf returns the file of pass that contains pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// ImportName returns the name under which file imports path, and whether it
// does (a blank or dot import does not count).
func ImportName(info *types.Info, file *ast.File, path string) (string, bool) {
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		pn := info.PkgNameOf(imp)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		return pn.Name(), true
	}
	return "", false
}

// PackageName returns how code at pos in file can refer to the package at
// path: the file's import name if it imports it and the name is not
// shadowed at pos. When the file does not import it, it returns the name to
// use and the edit that adds the import, provided that name is free at pos
// and the module resolves path without a change to its go.mod (Resolves).
func PackageName(pass *analysis.Pass, file *ast.File, pos token.Pos, path, name string) (string, []analysis.TextEdit, bool) {
	if n, ok := ImportName(pass.TypesInfo, file, path); ok {
		if obj := lookup(pass.Pkg, pos, n); obj != nil {
			if pn, ok := obj.(*types.PkgName); ok && pn.Imported().Path() == path {
				return n, nil, true
			}
		}
		return "", nil, false
	}
	if lookup(pass.Pkg, pos, name) != nil || !Resolves(pass, path) {
		return "", nil, false
	}
	return name, AddImport(pass.Fset, file, path), true
}

// VisibleAt reports whether v can be spelled by its name at pos: it is in
// scope there and not shadowed.
func VisibleAt(pkg *types.Package, pos token.Pos, v types.Object) bool {
	return v != nil && lookup(pkg, pos, v.Name()) == v
}

func lookup(pkg *types.Package, pos token.Pos, name string) types.Object {
	scope := pkg.Scope().Innermost(pos)
	if scope == nil {
		return nil
	}
	_, obj := scope.LookupParent(name, pos)
	return obj
}

// Names hands out names for the variables fixes declare. Free returns
// base, or base followed by a number, such that the name is not declared
// in the scope at pos, not used by the function body that contains pos (to
// stay clear of later declarations), and not given to an earlier fix of
// the same pass in that body — resilint -fix applies every fix at once, so
// two fixes in one function must not both declare ctx2. Use one Names per
// pass; the zero value is ready to use.
type Names struct {
	taken map[ast.Node]map[string]bool
}

// Free returns a fresh name (see Names) and records it as taken in body.
// A name taken in a body that encloses body, or that body encloses, counts
// as taken too: a fix in a goroutine's literal must not shadow a variable a
// fix of the enclosing function declares.
func (ns *Names) Free(pkg *types.Package, pos token.Pos, body ast.Node, base string) string {
	if ns.taken == nil {
		ns.taken = map[ast.Node]map[string]bool{}
	}
	taken := ns.taken[body]
	if taken == nil {
		taken = map[string]bool{}
		ns.taken[body] = taken
	}
	all := map[string]bool{}
	for b, names := range ns.taken {
		if b == body || body == nil || b == nil || (b.Pos() <= body.Pos() && body.End() <= b.End()) || (body.Pos() <= b.Pos() && b.End() <= body.End()) {
			for n := range names {
				all[n] = true
			}
		}
	}
	name := freeName(pkg, pos, body, base, all)
	taken[name] = true
	return name
}

func freeName(pkg *types.Package, pos token.Pos, body ast.Node, base string, taken map[string]bool) string {
	used := map[string]bool{}
	for n := range taken {
		used[n] = true
	}
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	name := base
	for i := 2; ; i++ {
		if !used[name] && lookup(pkg, pos, name) == nil {
			return name
		}
		name = base + strconv.Itoa(i)
	}
}

// AddImport returns the edit that adds an import of path to file: into
// the standard-library or the third-party group of the file's import block
// (a group of its own when the block has none), near its sorted place (the
// driver sorts the block). Two fixes that add different imports to one
// file must not insert at the same offset (their order would be a guess,
// and the driver applies neither): a path that sorts before "m" (context)
// goes at the end of the line of the import before it (or of the line
// above the group), one after (time) at the start of the line of the
// import after it (at the end of the group, both go after its last line),
// so that the paths fixes add to the same file take distinct places. An
// import a fix may delete (sync) is never a neighbour: its lines may be
// gone.
func AddImport(fset *token.FileSet, file *ast.File, path string) []analysis.TextEdit {
	quoted := strconv.Quote(path)
	var block, single *ast.GenDecl
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() && len(gd.Specs) > 0 {
			block = gd
			break
		}
		if single == nil && len(gd.Specs) == 1 {
			single = gd
		}
	}
	insert := func(pos token.Pos, text string) []analysis.TextEdit {
		return []analysis.TextEdit{{Pos: pos, End: pos, NewText: []byte(text)}}
	}
	if block == nil {
		if single != nil {
			if path < importPath(single.Specs[0]) {
				return insert(single.Pos(), "import "+quoted+"\n")
			}
			tf := fset.File(single.Pos())
			if l := tf.Line(single.End()); !isStd(path) && l < tf.LineCount() {
				return insert(tf.LineStart(l+1), "import "+quoted+"\n")
			} else if end := tf.Offset(single.End()); !isStd(path) && end < tf.Size() {
				// The last line: after its newline.
				return insert(tf.Pos(end+1), "import "+quoted+"\n")
			}
			return insert(single.End(), "\nimport "+quoted)
		}
		return insert(file.Name.End(), "\n\nimport "+quoted+"\n")
	}
	tf := fset.File(block.Pos())
	lineStart := func(n ast.Node) token.Pos { return tf.LineStart(tf.Line(n.Pos())) }
	lineEnd := func(n ast.Node) token.Pos {
		if l := tf.Line(n.End()); l < tf.LineCount() {
			return tf.LineStart(l+1) - 1
		}
		return n.End()
	}
	// The groups of the block: runs of specs on consecutive lines.
	var groups [][]*ast.ImportSpec
	prevLine := -2
	for _, s := range block.Specs {
		is := s.(*ast.ImportSpec)
		if l := tf.Line(is.Pos()); l == prevLine+1 && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], is)
		} else {
			groups = append(groups, []*ast.ImportSpec{is})
		}
		prevLine = tf.Line(is.End())
	}
	std := isStd(path)
	for _, g := range groups {
		if isStd(importPath(g[0])) != std {
			continue
		}
		// Neighbours: not an import a fix may delete (its line may be gone).
		var a, b *ast.ImportSpec
		for _, is := range g {
			switch p := importPath(is); {
			case p == path:
				return nil // already imported
			case deletedImports[p]:
			case p < path:
				a = is
			case p > path && b == nil:
				b = is
			}
		}
		// Distinct places for paths of either sort side ("early": before
		// "m", as context; "late", as time) in the same gap; none inside or
		// at the start of a deleted import's lines.
		first, last := g[0], g[len(g)-1]
		late := path >= "m"
		switch {
		case a == nil && b == nil, a == nil && !late:
			// Before the group's first line, at the end of the line above.
			if a == nil && b == nil && late {
				return insert(lineEnd(last)+1, "\t"+quoted+"\n")
			}
			return insert(lineStart(first)-1, "\n\t"+quoted)
		case a == nil:
			return insert(lineStart(b), "\t"+quoted+"\n")
		case b == nil, !late:
			return insert(lineEnd(a), "\n\t"+quoted)
		default:
			return insert(lineStart(b), "\t"+quoted+"\n")
		}
	}
	if std {
		// A standard-library group of its own, first.
		return insert(lineStart(groups[0][0]), "\t"+quoted+"\n\n")
	}
	// A third-party group of its own, last.
	return insert(block.Rparen, "\n\t"+quoted+"\n")
}

// deletedImports are the imports a resilint fix may delete (the WaitGroup
// rewrite deletes sync when it removes its last use): AddImport never
// places an import next to one of them, so that the two edits never touch.
var deletedImports = map[string]bool{"sync": true}

func importPath(s ast.Spec) string {
	p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value)
	return p
}

// IsStdPath reports whether an import path is the standard library's (its
// first element has no dot).
func IsStdPath(path string) bool { return isStd(path) }

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// SortEdits orders a fix's edits by position (stable for insertions at one
// place), as tools that merge fixes expect.
func SortEdits(edits []analysis.TextEdit) []analysis.TextEdit {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	return edits
}
