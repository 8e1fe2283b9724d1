package analysisutil

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strconv"

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
// use and the edit that adds the import, provided that name is free at pos.
func PackageName(pass *analysis.Pass, file *ast.File, pos token.Pos, path, name string) (string, []analysis.TextEdit, bool) {
	if n, ok := ImportName(pass.TypesInfo, file, path); ok {
		if obj := lookup(pass.Pkg, pos, n); obj != nil {
			if pn, ok := obj.(*types.PkgName); ok && pn.Imported().Path() == path {
				return n, nil, true
			}
		}
		return "", nil, false
	}
	if lookup(pass.Pkg, pos, name) != nil {
		return "", nil, false
	}
	return name, AddImport(file, path), true
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
func (ns *Names) Free(pkg *types.Package, pos token.Pos, body ast.Node, base string) string {
	if ns.taken == nil {
		ns.taken = map[ast.Node]map[string]bool{}
	}
	taken := ns.taken[body]
	if taken == nil {
		taken = map[string]bool{}
		ns.taken[body] = taken
	}
	name := freeName(pkg, pos, body, base, taken)
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

// AddImport returns the edit that adds an import of path to file.
func AddImport(file *ast.File, path string) []analysis.TextEdit {
	quoted := strconv.Quote(path)
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + quoted + "\n")}}
		}
		return []analysis.TextEdit{{Pos: gd.Pos(), End: gd.Pos(), NewText: []byte("import " + quoted + "\n")}}
	}
	return []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + quoted + "\n")}}
}
