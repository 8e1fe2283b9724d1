// Package nolint reads golangci-lint style //nolint directives:
//
//	x := f() //nolint:resilint // the reason
//	//nolint:ctxdeadline,detachedctx // the reason
//	func g() { ... }
//
// A directive on a line suppresses findings on that line; a directive in the
// doc comment of a declaration (or on its own line right above it) suppresses
// findings in the whole declaration. A directive names linters: "resilint"
// and "all" (and a bare //nolint) match every resilint analyzer; an analyzer
// name matches that analyzer.
package nolint

import (
	"go/ast"
	"go/token"
	"strings"
)

// Directive is one //nolint comment.
type Directive struct {
	Pos token.Pos // the comment
	// From and To are the lines the directive covers.
	File     string
	From, To int
	// Names are the linters named; empty means all.
	Names []string
	// Used is set when the directive suppressed a finding.
	Used bool
}

// Matches reports whether the directive covers analyzer name.
func (d *Directive) Matches(analyzer string) bool {
	if len(d.Names) == 0 {
		return true
	}
	for _, n := range d.Names {
		if n == "resilint" || n == "all" || n == analyzer {
			return true
		}
	}
	return false
}

// Ours reports whether the directive names resilint or one of the given
// analyzers (a bare //nolint is not ours: other linters may use it).
func (d *Directive) Ours(analyzers map[string]bool) bool {
	for _, n := range d.Names {
		if n == "resilint" || analyzers[n] {
			return true
		}
	}
	return false
}

// Parse returns the directive a comment holds, if any.
func Parse(text string) (names []string, ok bool) {
	if !strings.HasPrefix(text, "//nolint") {
		return nil, false
	}
	rest := text[len("//nolint"):]
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' || strings.HasPrefix(rest, "//") {
		return nil, true
	}
	if rest[0] != ':' {
		return nil, false
	}
	rest = rest[1:]
	end := strings.IndexAny(rest, " \t/")
	if end >= 0 {
		rest = rest[:end]
	}
	for _, n := range strings.Split(rest, ",") {
		n = strings.TrimSpace(n)
		if n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, false
	}
	return names, true
}

// File returns the directives of one file.
func File(fset *token.FileSet, f *ast.File) []*Directive {
	var out []*Directive
	// Map comment groups that are attached to declarations.
	declOf := map[*ast.CommentGroup]ast.Node{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				declOf[d.Doc] = d
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				declOf[d.Doc] = d
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Doc != nil {
						declOf[s.Doc] = s
					}
				case *ast.ValueSpec:
					if s.Doc != nil {
						declOf[s.Doc] = s
					}
				}
			}
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			names, ok := Parse(c.Text)
			if !ok {
				continue
			}
			// Positions in the file as it is: a //line directive moves
			// neither findings nor directives.
			p := fset.PositionFor(c.Slash, false)
			d := &Directive{Pos: c.Slash, File: p.Filename, From: p.Line, To: p.Line, Names: names}
			if n, ok := declOf[cg]; ok {
				d.To = fset.PositionFor(n.End(), false).Line
			}
			out = append(out, d)
		}
	}
	return out
}

// Suppressed reports whether a finding of analyzer at posn is covered by one
// of the directives, and marks the directive used.
func Suppressed(dirs []*Directive, analyzer string, posn token.Position) bool {
	hit := false
	for _, d := range dirs {
		if d.File == posn.Filename && d.From <= posn.Line && posn.Line <= d.To && d.Matches(analyzer) {
			d.Used = true
			hit = true
		}
	}
	return hit
}
