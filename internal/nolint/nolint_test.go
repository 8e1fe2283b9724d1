package nolint

import (
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		text  string
		names []string
		ok    bool
	}{
		{"//nolint", nil, true},
		{"//nolint // reason", nil, true},
		{"//nolint:resilint", []string{"resilint"}, true},
		{"//nolint:ctxdeadline,detachedctx // reason", []string{"ctxdeadline", "detachedctx"}, true},
		{"//nolint:ctxdeadline//reason", []string{"ctxdeadline"}, true},
		{"// nolint:resilint", nil, false}, // golangci-lint requires no space
		{"//nolintx", nil, false},
		{"//nolint:", nil, false},
		{"// a comment", nil, false},
	}
	for _, c := range cases {
		names, ok := Parse(c.text)
		if ok != c.ok || !reflect.DeepEqual(names, c.names) {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", c.text, names, ok, c.names, c.ok)
		}
	}
}

func TestScope(t *testing.T) {
	const src = `package p

func a() {
	x() //nolint:ctxdeadline // line only
	x()
}

//nolint:resilint // whole declaration
func b() {
	x()
	x()
}

// Doc comment.
//
//nolint:detachedctx
func c() {
	x()
}

func x() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	dirs := File(fset, f)
	if len(dirs) != 3 {
		t.Fatalf("got %d directives, want 3", len(dirs))
	}
	at := func(line int) token.Position { return token.Position{Filename: "p.go", Line: line} }
	cases := []struct {
		analyzer string
		line     int
		want     bool
	}{
		{"ctxdeadline", 4, true},
		{"detachedctx", 4, false}, // names another analyzer
		{"ctxdeadline", 5, false}, // the next line
		{"ctxdeadline", 10, true}, // inside b
		{"sleepretry", 11, true},  // "resilint" covers every analyzer
		{"detachedctx", 18, true},
		{"ctxdeadline", 18, false},
		{"ctxdeadline", 21, false},
	}
	for _, c := range cases {
		if got := Suppressed(dirs, c.analyzer, at(c.line)); got != c.want {
			t.Errorf("%s at line %d: suppressed = %v, want %v", c.analyzer, c.line, got, c.want)
		}
	}
	for _, d := range dirs {
		if !d.Used {
			t.Errorf("directive at line %d not marked used", d.From)
		}
	}
}
