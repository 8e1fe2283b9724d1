package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// Uses counts the references in file to the package imported as path.
func Uses(info *types.Info, file *ast.File, path string) int {
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == path {
				n++
			}
		}
		return true
	})
	return n
}

// DeleteImport returns the edit that deletes file's import of path (its
// line in an import group, or the whole declaration of a single import),
// or nil when file does not import it.
func DeleteImport(fset *token.FileSet, file *ast.File, path string) []analysis.TextEdit {
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			is := spec.(*ast.ImportSpec)
			if p, err := strconv.Unquote(is.Path.Value); err != nil || p != path {
				continue
			}
			var n ast.Node = is
			if !gd.Lparen.IsValid() || len(gd.Specs) == 1 {
				n = gd
			}
			tf := fset.File(n.Pos())
			start := tf.LineStart(tf.Line(n.Pos()))
			end := n.End()
			if line := tf.Line(end); line < tf.LineCount() {
				end = tf.LineStart(line + 1)
			}
			return []analysis.TextEdit{{Pos: start, End: end}}
		}
	}
	return nil
}
