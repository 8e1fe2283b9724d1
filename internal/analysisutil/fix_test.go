package analysisutil

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// apply applies edits to src (offsets of file f), refusing two insertions
// at one offset as resilint's driver does.
func apply(t *testing.T, fset *token.FileSet, src string, edits []analysis.TextEdit) string {
	t.Helper()
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	tf := fset.File(edits[0].Pos)
	var b strings.Builder
	last := 0
	for i, e := range edits {
		if i > 0 && edits[i-1].Pos == e.Pos && edits[i-1].End == e.Pos && e.End == e.Pos {
			t.Fatalf("two insertions at offset %d", tf.Offset(e.Pos))
		}
		b.WriteString(src[last:tf.Offset(e.Pos)])
		b.WriteString(string(e.NewText))
		last = tf.Offset(e.End)
	}
	b.WriteString(src[last:])
	return b.String()
}

// TestAddImportDistinct: the imports fixes add to one file (context, time
// and resil, from three analyzers) go to distinct offsets, into their
// groups, and the result is gofmt-clean.
func TestAddImportDistinct(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{
			src:  "package p\n\nimport (\n\t\"database/sql\"\n\t\"fmt\"\n)\n",
			want: "package p\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"fmt\"\n\t\"time\"\n\n\t\"github.com/resilint/resilint/resil\"\n)\n",
		},
		{
			src:  "package p\n\nimport (\n\t\"bufio\"\n\t\"unicode\"\n\n\t\"golang.org/x/sync/errgroup\"\n)\n",
			want: "package p\n\nimport (\n\t\"bufio\"\n\t\"context\"\n\t\"time\"\n\t\"unicode\"\n\n\t\"github.com/resilint/resilint/resil\"\n\t\"golang.org/x/sync/errgroup\"\n)\n",
		},
		{
			src:  "package p\n\nimport \"fmt\"\n",
			want: "package p\n\nimport \"context\"\nimport \"fmt\"\nimport \"time\"\nimport \"github.com/resilint/resilint/resil\"\n",
		},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", tc.src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		var edits []analysis.TextEdit
		for _, p := range []string{"context", "time", "github.com/resilint/resilint/resil"} {
			edits = append(edits, AddImport(fset, f, p)...)
		}
		got := apply(t, fset, tc.src, edits)
		fmted, err := format.Source([]byte(got))
		if err != nil {
			t.Fatalf("invalid Go:\n%s", got)
		}
		if string(fmted) != tc.want {
			t.Errorf("AddImport:\n%s\nwant:\n%s", fmted, tc.want)
		}
	}
}

func TestTerminates(t *testing.T) {
	for src, want := range map[string]bool{
		"return":                             true,
		"panic(1)":                           true,
		"for {}":                             true,
		"for { break }":                      false,
		"L: for { for { break L } }":         false,
		"for { for { break } }":              true,
		"for { select { case <-c: break } }": true,
		"if x { return } else { panic(0) }":  true,
		"if x { return }":                    false,
		"switch { case x: return; default: return }":      true,
		"switch { case x: return }":                       false,
		"select { case <-c: return }":                     true,
		"select { case <-c: break }":                      false,
		"work()":                                          false,
		"{ return }":                                      true,
		"for { func() { for { break } }() }":              true,
		"switch { case x: fallthrough; default: return }": true,
	} {
		if got := terminatesIn(t, "", src); got != want {
			t.Errorf("Terminates(%s) = %v, want %v", src, got, want)
		}
	}
	// A package's own function named panic returns: a fix must still end
	// the block with a return.
	if terminatesIn(t, "func panic(any) {}\n", "panic(1)") {
		t.Errorf("Terminates(panic(1)) with a package-level func panic = true, want false")
	}
}

// terminatesIn type-checks a function whose body is src, with decls in a
// second file of the package (the parser alone cannot resolve them), and
// asks Terminates about that body.
func terminatesIn(t *testing.T, decls, src string) bool {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\nfunc f() {\n"+src+"\n}\n", 0)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	other, err := parser.ParseFile(fset, "q.go", "package p\nvar x bool\nvar c chan int\nfunc work() {}\n"+decls, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f, other}, info); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	return Terminates(info, body)
}

// TestAddImportBesideDeleted: imports added to a file whose sync import a
// fix deletes do not touch the deletion.
func TestAddImportBesideDeleted(t *testing.T) {
	for _, src := range []string{
		"package p\n\nimport (\n\t\"context\"\n\t\"sync\"\n)\n",
		"package p\n\nimport (\n\t\"sync\"\n\t\"unicode\"\n)\n",
		"package p\n\nimport (\n\t\"bufio\"\n\t\"sync\"\n\t\"unicode\"\n\n\t\"golang.org/x/sync/errgroup\"\n)\n",
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		edits := DeleteImport(fset, f, "sync")
		for _, p := range []string{"context", "time", "github.com/resilint/resilint/resil"} {
			for _, e := range AddImport(fset, f, p) {
				for _, d := range edits {
					if d.Pos <= e.Pos && e.Pos < d.End {
						t.Errorf("%q: the %s import is inside the deletion of sync", src, p)
					}
				}
				edits = append(edits, e)
			}
		}
		got := apply(t, fset, src, edits)
		fmted, err := format.Source([]byte(got))
		if err != nil {
			t.Fatalf("invalid Go:\n%s", got)
		}
		if strings.Contains(string(fmted), "\"sync\"") || !strings.Contains(string(fmted), "\"time\"") {
			t.Errorf("%q →\n%s", src, fmted)
		}
	}
}
