package vetunit

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/suite"
)

// TestFastPathIsSound analyses the test packages of the passes and analyzers
// that export facts (each a GOPATH tree of fakes of the libraries the
// knowledge table knows) with the in-process checker, and checks that every
// package that exports a fact is one the fast path analyses: it is or
// imports one of FactPaths, or imports a package with facts. A pass that
// starts exporting facts on another condition fails this test, instead of
// silently losing facts in the vet engine.
func TestFastPathIsSound(t *testing.T) {
	if testing.Short() {
		t.Skip("loads several package trees from source")
	}
	root := filepath.Join("..", "..")
	trees := []string{
		"passes/ctxflow/testdata", "passes/outbound/testdata", "passes/retryloop/testdata", "passes/deps/testdata",
		"analyzers/globalbreaker/testdata", "analyzers/ctxdeadline/testdata", "analyzers/nestedretry/testdata",
	}
	cfg := config.Default()
	paths := FactPaths(cfg.Table())
	checked, withFacts := 0, 0
	for _, tree := range trees {
		dir, err := filepath.Abs(filepath.Join(root, tree))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "src")); err != nil {
			continue
		}
		conf := &packages.Config{
			Mode: packages.LoadAllSyntax,
			Dir:  filepath.Join(dir, "src"),
			Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
		}
		pkgs, err := packages.Load(conf, "./...")
		if err != nil {
			t.Fatalf("%s: %v", tree, err)
		}
		var good []*packages.Package
		for _, p := range pkgs {
			if len(p.Errors) == 0 && !p.IllTyped {
				good = append(good, p)
			}
		}
		graph, err := checker.Analyze(suite.All(cfg), good, nil)
		if err != nil {
			t.Fatalf("%s: %v", tree, err)
		}
		// Own facts of every package analysed (roots and dependencies).
		own := map[string][]string{}
		imports := map[string][]string{}
		for act := range graph.All() {
			p := act.Package
			imports[p.PkgPath] = nil
			for path := range p.Imports {
				imports[p.PkgPath] = append(imports[p.PkgPath], p.Imports[path].PkgPath)
			}
			for _, f := range act.AllObjectFacts() {
				if f.Object.Pkg() == p.Types {
					own[p.PkgPath] = append(own[p.PkgPath], act.Analyzer.Name+": "+f.Object.Name())
				}
			}
			for _, f := range act.AllPackageFacts() {
				if f.Package == p.Types {
					own[p.PkgPath] = append(own[p.PkgPath], act.Analyzer.Name+": package fact")
				}
			}
		}
		hasFacts := func(path string) bool { return len(own[path]) > 0 }
		var names []string
		for path := range imports {
			names = append(names, path)
		}
		sort.Strings(names)
		for _, path := range names {
			checked++
			if len(own[path]) == 0 {
				continue
			}
			withFacts++
			if !CanHaveFacts(path, analysisutil.OwnPackage(nil, path), imports[path], paths, hasFacts) {
				t.Errorf("%s: package %s exports facts (%s) but the fast path would skip it: it imports %s", tree, path, strings.Join(own[path], "; "), strings.Join(imports[path], ", "))
			}
		}
	}
	t.Logf("%d packages, %d with facts", checked, withFacts)
	if withFacts == 0 {
		t.Fatal("no package exported a fact: the test checks nothing")
	}
}
