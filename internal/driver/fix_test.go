package driver

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
	"testing"
)

// apply renders src with edits given as (old substring, new text) pairs,
// each replacing the first occurrence.
func apply(t *testing.T, src string, pairs ...string) string {
	t.Helper()
	var edits []edit
	for i := 0; i < len(pairs); i += 2 {
		at := strings.Index(src, pairs[i])
		if at < 0 {
			t.Fatalf("no %q in the source", pairs[i])
		}
		edits = append(edits, edit{at, at + len(pairs[i]), pairs[i+1]})
	}
	out, _, err := render("x.go", []byte(src), edits)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestRenderMinimal: only the declaration an edit touches is formatted;
// an unformatted declaration elsewhere, comments and build constraints
// stay as they are.
func TestRenderMinimal(t *testing.T) {
	src := "//go:build linux\n\n// Package x.\npackage x\n\nvar  a = 1 // not gofmt'ed\n\n/* a comment */\n\nfunc f() {\n\tg( 1 )\n}\n\nfunc h() {\n\tg(2)\n}\n"
	got := apply(t, src, "g(2)", "g(2,\n3)")
	want := "//go:build linux\n\n// Package x.\npackage x\n\nvar  a = 1 // not gofmt'ed\n\n/* a comment */\n\nfunc f() {\n\tg( 1 )\n}\n\nfunc h() {\n\tg(2,\n\t\t3)\n}\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// In a declaration that was not formatted, only the touched lines are.
	at := strings.Index(src, "g( 1 )") + len("g( 1 )")
	out, _, err := render("x.go", []byte(src), []edit{{at, at, "\n\tg(x )"}})
	if err != nil {
		t.Fatal(err)
	}
	got = string(out)
	want = strings.Replace(src, "\tg( 1 )\n", "\tg( 1 )\n\tg(x)\n", 1)
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRenderCRLF: a CRLF file stays CRLF, untouched lines byte-identical.
func TestRenderCRLF(t *testing.T) {
	src := strings.ReplaceAll("package x\n\nimport \"fmt\"\n\nfunc f() {\n\tfmt.Println(1)\n}\n\nfunc g() {}\n", "\n", "\r\n")
	got := apply(t, src, "fmt.Println(1)", "fmt.Println(1)\n\tfmt.Println(2)")
	want := strings.ReplaceAll("package x\n\nimport \"fmt\"\n\nfunc f() {\n\tfmt.Println(1)\n\tfmt.Println(2)\n}\n\nfunc g() {}\n", "\n", "\r\n")
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestRenderSyntaxError(t *testing.T) {
	src := "package x\n\nvar a = 1\n"
	at := strings.Index(src, "1")
	if _, _, err := render("x.go", []byte(src), []edit{{at, at + 1, "1 +"}}); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("err = %v, want a syntax error", err)
	}
	if _, _, err := render("x.go", []byte(src), []edit{{at, at + 1, "2"}, {at, at + 1, "3"}}); err == nil {
		t.Error("overlapping edits rendered")
	}
}

// TestImportGroups: imports that fixes add go into goimports' groups.
func TestImportGroups(t *testing.T) {
	cases := []struct {
		name, src string
		add       []importSpec
		want      string
	}{
		{"std into the std group", "package x\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\n\t\"github.com/a/b\"\n)\n",
			[]importSpec{{path: "time"}},
			"package x\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\t\"time\"\n\n\t\"github.com/a/b\"\n)\n"},
		{"third party: a new group", "package x\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n",
			[]importSpec{{path: "github.com/resilint/resilint/resil"}},
			"package x\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\t\"github.com/resilint/resilint/resil\"\n)\n"},
		{"third party: by longest prefix", "package x\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/me/a\"\n\n\t\"github.com/x/y\"\n)\n",
			[]importSpec{{path: "example.com/me/b"}, {path: "context"}},
			"package x\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\n\t\"example.com/me/a\"\n\t\"example.com/me/b\"\n\n\t\"github.com/x/y\"\n)\n"},
		{"std: a new first group", "package x\n\nimport (\n\t\"github.com/x/y\"\n)\n",
			[]importSpec{{path: "time"}},
			"package x\n\nimport (\n\t\"time\"\n\n\t\"github.com/x/y\"\n)\n"},
		{"single import becomes a block", "package x\n\nimport \"fmt\" // for f\n\nfunc f() { fmt.Println() }\n",
			[]importSpec{{path: "time"}, {path: "golang.org/x/sync/errgroup"}},
			"package x\n\nimport (\n\t\"fmt\" // for f\n\t\"time\"\n\n\t\"golang.org/x/sync/errgroup\"\n)\n\nfunc f() { fmt.Println() }\n"},
		{"no imports", "// Package x.\npackage x // x\n\nfunc f() {}\n",
			[]importSpec{{path: "time"}},
			"// Package x.\npackage x // x\n\nimport \"time\"\n\nfunc f() {}\n"},
		{"already imported", "package x\n\nimport \"time\"\n",
			[]importSpec{{path: "time"}},
			"package x\n\nimport \"time\"\n"},
	}
	for _, c := range cases {
		fi := parseImports("x.go", []byte(c.src))
		out, _, err := render("x.go", []byte(c.src), fi.plan(c.add))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(out) != c.want {
			t.Errorf("%s: got:\n%s\nwant:\n%s", c.name, out, c.want)
		}
		if f, err := format.Source(out); err != nil || !bytes.Equal(f, out) {
			t.Errorf("%s: the result is not gofmt'ed:\n%s", c.name, out)
		}
	}
}

// TestImportEdit: an edit recognized as adding imports is one in the
// import area whose text is only imports.
func TestImportEdit(t *testing.T) {
	src := "package x\n\nimport (\n\t\"fmt\"\n)\n\nvar s = \"a\"\n"
	fi := parseImports("x.go", []byte(src))
	rparen := strings.Index(src, ")")
	if specs, ok := fi.importEdit(edit{rparen, rparen, "\t\"time\"\n"}); !ok || len(specs) != 1 || specs[0].path != "time" {
		t.Errorf("the import edit is not recognized: %v %v", specs, ok)
	}
	lit := strings.Index(src, `"a"`)
	if _, ok := fi.importEdit(edit{lit, lit, `"b"`}); ok {
		t.Error("a string literal outside the imports is taken for an import")
	}
	if _, ok := fi.importEdit(edit{rparen, rparen, "\t\"time\"\n\tvar y = 1\n"}); ok {
		t.Error("an edit with more than imports is taken for an import")
	}
}

func TestEditSet(t *testing.T) {
	var s editSet
	s.add([]edit{{10, 12, "a"}, {20, 20, "b"}})
	for _, c := range []struct {
		e    edit
		want bool
	}{
		{edit{10, 12, "a"}, false}, // identical
		{edit{11, 13, "x"}, true},
		{edit{20, 20, "c"}, false}, // another insertion at the same point
		{edit{19, 21, "c"}, true},  // a replacement around an insertion
		{edit{12, 12, "c"}, false}, // an insertion at a replacement's end
		{edit{11, 11, "c"}, true},  // inside a replacement
		{edit{0, 10, ""}, false},
	} {
		if got := s.clashes([]edit{c.e}); got != c.want {
			t.Errorf("clashes(%v) = %v, want %v", c.e, got, c.want)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	got := unifiedDiff("old", "new", a, b)
	// Two hunks: the changes are more than 2×3 lines of context apart.
	want := `--- old
+++ new
@@ -1,7 +1,7 @@
 a
 b
 c
-d
+D
 e
 f
 g
@@ -10,3 +10,4 @@
 j
 k
 l
+m
`
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	// Changes 2×3 lines apart share one hunk, as in GNU diff.
	got = unifiedDiff("old", "new", "a\nb\nc\nd\ne\nf\ng\nh\n", "A\nb\nc\nd\ne\nf\ng\nH\n")
	if strings.Count(got, "@@ ") != 1 || !strings.Contains(got, "@@ -1,8 +1,8 @@") {
		t.Errorf("want one hunk:\n%s", got)
	}
	if unifiedDiff("old", "new", a, a) != "" {
		t.Error("equal texts have a diff")
	}
	if got := unifiedDiff("old", "new", "", "x\n"); !strings.Contains(got, "@@ -0,0 +1,1 @@") {
		t.Errorf("diff of an empty file:\n%s", got)
	}
	if got := unifiedDiff("old", "new", "x", "y"); !strings.Contains(got, "-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n") {
		t.Errorf("no newline at the end:\n%s", got)
	}
}

// TestRegionDiff: the diff from rendered regions equals the diff of the
// texts.
func TestRegionDiff(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "func f%d() {\n\tg(%d)\n}\n\n", i, i)
	}
	src := "package x\n\n" + b.String()
	var edits []edit
	for _, i := range []int{3, 4, 20, 49} {
		at := strings.Index(src, fmt.Sprintf("g(%d)", i))
		edits = append(edits, edit{at, at + len(fmt.Sprintf("g(%d)", i)), fmt.Sprintf("h(%d)\n\tg(%d)", i, i)})
	}
	out, regions, err := render("x.go", []byte(src), edits)
	if err != nil {
		t.Fatal(err)
	}
	got := unifiedDiffOf("a", "b", []byte(src), regionChanges([]byte(src), regions))
	want := unifiedDiff("a", "b", src, string(out))
	if got != want {
		t.Errorf("region diff:\n%s\nwant:\n%s", got, want)
	}
}
