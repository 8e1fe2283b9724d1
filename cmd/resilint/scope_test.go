package main_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestTestScope: test code is decided per file and function and by the
// import graph, never by a directory's name: a test helper file does not
// make its package's production code test code; a package only tests
// import is test code; a package named mocks that production code imports
// is not. third_party, builtin and examples are excluded as golangci-lint
// excludes them, configurably (issue 13.7). See testdata/scope/README.md.
func TestTestScope(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "scope")
	base := []string{"app/app.go:11 ctxdeadline", "helpers/prod.go:10 ctxdeadline", "mocks/mocks.go:12 ctxdeadline"}
	with := func(extra ...string) []string {
		out := append(append([]string(nil), base...), extra...)
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, base},
		{[]string{"-test=false"}, base}, // the test files' imports are read all the same
		{[]string{"-include-tests"}, with("helpers/th.go:11 ctxdeadline", "support/support.go:11 ctxdeadline")},
		{[]string{"-exclude-dirs="}, with("examples/ex/ex.go:10 ctxdeadline", "third_party/tp/tp.go:10 ctxdeadline")},
		{[]string{"-exclude-dirs=examples"}, with("third_party/tp/tp.go:10 ctxdeadline")},
	} {
		if got := lines(t, dir, append(c.args, "./...")...); !slices.Equal(got, c.want) {
			t.Errorf("resilint %v:\n got %q\nwant %q", c.args, got, c.want)
		}
	}
	cfg := filepath.Join(t.TempDir(), "resilint.yml")
	writeFile(t, cfg, "exclude-dirs: [third_party]\n")
	if got, want := lines(t, dir, "-config", cfg, "./..."), with("examples/ex/ex.go:10 ctxdeadline"); !slices.Equal(got, want) {
		t.Errorf("exclude-dirs in the configuration file:\n got %q\nwant %q", got, want)
	}
}
