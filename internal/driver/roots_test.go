package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/resilint/resilint/internal/vetunit"
)

// TestLocalRoots: the packages of directory patterns are found as the go
// command finds them: build constraints and -tags decide the files, ./...
// leaves out testdata, vendor, _ and . directories and nested modules, and
// a directory whose files name two packages gets nothing.
func TestLocalRoots(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                "module m\n",
		"a/a.go":                "package a\n",
		"a/a_test.go":           "package a\n",
		"a/gen.go":              "//go:build ignore\n\npackage main\n",
		"b/b.go":                "package b\n",
		"b/other.go":            "package other\n",
		"c/c.go":                "//go:build special\n\npackage c\n",
		"d/testdata/x/x.go":     "package x\n",
		"d/vendor/v/v.go":       "package v\n",
		"d/_skip/s.go":          "package s\n",
		"d/.hidden/h.go":        "package h\n",
		"d/nested/go.mod":       "module n\n",
		"d/nested/n.go":         "package n\n",
		"d/d.go":                "package d\n",
		"e/only_test.go":        "package e\n",
		"f/doc.go":              "package documentation\n",
		"g/g.go":                "package g\n\n// a comment\n",
		"g/h/h.go":              "package h\n",
		"notpattern/np.go":      "package np\n",
		"notpattern/np_test.go": "package np\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "")
	var rest []string
	got := func(patterns []string, tags string) []string {
		var out []string
		var roots []rootPkg
		roots, rest = localRoots(patterns, tags)
		for _, r := range roots {
			rel, _ := filepath.Rel(dir, r.dir)
			out = append(out, rel+":"+r.name)
		}
		sort.Strings(out)
		return out
	}
	for _, c := range []struct {
		patterns []string
		tags     string
		want     []string
		rest     []string // the patterns left to go list
	}{
		{[]string{"./..."}, "", []string{"a:a", "d:d", "g/h:h", "g:g", "notpattern:np"}, nil},
		{[]string{"./..."}, "special", []string{"a:a", "c:c", "d:d", "g/h:h", "g:g", "notpattern:np"}, nil},
		{[]string{"./g/...", "./a", "example.com/x/...", "all"}, "", []string{"a:a", "g/h:h", "g:g"}, []string{"example.com/x/...", "all"}},
		{[]string{filepath.Join(dir, "d")}, "", []string{"d:d"}, nil},
		{[]string{"m/g/...", "m/a", "m", "mx/b", "example.com/m/c"}, "", []string{"a:a", "g/h:h", "g:g"}, []string{"mx/b", "example.com/m/c"}},
		{[]string{"m/..."}, "", []string{"a:a", "d:d", "g/h:h", "g:g", "notpattern:np"}, nil},
		{[]string{"./d/.../x", "m/g...", "std"}, "", nil, []string{"./d/.../x", "m/g...", "std"}},
	} {
		if g := got(c.patterns, c.tags); !reflect.DeepEqual(g, c.want) || !reflect.DeepEqual(rest, c.rest) {
			t.Errorf("localRoots(%v, %q) = %v, rest %q; want %v, rest %q", c.patterns, c.tags, g, rest, c.want, c.rest)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod -tags=special")
	if g := got([]string{"./c"}, ""); !reflect.DeepEqual(g, []string{"c:c"}) {
		t.Errorf("with GOFLAGS -tags=special: %v, want [c:c]", g)
	}
}

// TestRootViews: of go vet's units, the views of root packages are kept
// (by their directory, through the overlay's files), a package printed by
// its root unit "p [p.test]" and by an importer's dependency unit "p" once,
// from the root unit, and a unit that carries an error is kept.
func TestRootViews(t *testing.T) {
	view := func(id, file string) vetunit.View {
		return vetunit.View{ID: id, Path: id, Files: []string{file}}
	}
	sel := &rootSet{dirs: map[string]bool{}, back: map[string]string{"/tmp/ov/0/a.go": "/m/a/a.go"}}
	sel.add("/m/a", "/m/b", "")
	units := []vetunit.Unit{
		{ID: "m/b", Views: []vetunit.View{view("m/b", "/m/b/b.go")}},         // dependency b
		{ID: "m/dep", Views: []vetunit.View{view("m/dep", "/m/dep/dep.go")}}, // not a root
		{ID: "m/a", Views: []vetunit.View{view("m/a", "/tmp/ov/0/a.go")}},    // through the overlay
		{ID: "m/b [m/b.test]", Views: []vetunit.View{view("m/b", "/m/b/b.go"), view("m/b [m/b.test]", "/m/b/b.go")}},
		{ID: "m/c [m/c.test]", Error: "type error"},
	}
	var kept []vetunit.Unit
	for _, u := range units {
		if sel.keep(&u) {
			kept = append(kept, u)
		}
	}
	var got []string
	for _, u := range distinctViews(kept) {
		s := u.ID + ":"
		for _, v := range u.Views {
			s += " " + v.ID
		}
		got = append(got, s)
	}
	want := []string{"m/a: m/a", "m/b [m/b.test]: m/b m/b [m/b.test]", "m/c [m/c.test]:"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	var none *rootSet
	if u := (vetunit.Unit{ID: "x", Views: []vetunit.View{view("x", "/x/x.go")}}); !none.keep(&u) || len(u.Views) != 1 {
		t.Errorf("a nil set dropped %v", u)
	}
}
