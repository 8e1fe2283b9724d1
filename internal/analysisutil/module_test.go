package analysisutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// write creates files (path → content) under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fakePass is a pass over the one file dir/name of package pkgPath.
func fakePass(t *testing.T, dir, name, pkgPath string) *analysis.Pass {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: types.NewPackage(pkgPath, f.Name.Name)}
}

func TestResolves(t *testing.T) {
	t.Setenv("GOWORK", "off")
	root := t.TempDir()
	cache := filepath.Join(root, "modcache")
	t.Setenv("GOMODCACHE", cache)
	write(t, root, map[string]string{
		// A module requiring x/sync (in the module cache) and lib (replaced
		// by a directory), but not resil.
		"app/go.mod":     "module example.com/app\n\ngo 1.26\n\nrequire (\n\tgolang.org/x/sync v0.1.0\n\texample.com/lib v1.0.0\n)\n\nreplace example.com/lib => ../lib\n",
		"app/svc/svc.go": "package svc\n",
		"app/util/u.go":  "package util\n",
		// A nested module inside app is not app's.
		"app/nested/go.mod":  "module example.com/app/nested\n",
		"app/nested/n.go":    "package nested\n",
		"lib/go.mod":         "module example.com/lib\n",
		"lib/group/group.go": "package group\n\ntype Group struct{}\n\nfunc New() *Group { return nil }\n\nfunc (g *Group) Go(f func()) {}\n",
		"modcache/golang.org/x/sync@v0.1.0/errgroup/errgroup.go": "package errgroup\n\ntype Group struct{}\n\nfunc (g *Group) Go(f func() error) {}\n",
	})
	pass := fakePass(t, filepath.Join(root, "app", "svc"), "svc.go", "example.com/app/svc")
	for path, want := range map[string]bool{
		"context":                            true, // the standard library
		"example.com/app/util":               true, // the main module
		"example.com/app/nested":             false,
		"example.com/app/missing":            false,
		"golang.org/x/sync/errgroup":         true,
		"golang.org/x/sync/semaphore":        false, // not in that version
		"example.com/lib/group":              true,
		"github.com/resilint/resilint/resil": false, // not required
	} {
		if got := Resolves(pass, path); got != want {
			t.Errorf("Resolves(%s) = %v, want %v", path, got, want)
		}
	}
	if !Declares(pass, "example.com/lib/group", "New", "Group", "Group.Go") {
		t.Error("Declares: lib/group declares New, Group and Group.Go")
	}
	if Declares(pass, "example.com/lib/group", "Group.Wait") {
		t.Error("Declares: lib/group has no Group.Wait")
	}
	if Declares(pass, "github.com/resilint/resilint/resil", "NewGroup") {
		t.Error("Declares: resil is not required")
	}
}

func TestResolvesWorkspaceAndVendor(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOMODCACHE", filepath.Join(root, "modcache"))
	t.Setenv("GOWORK", "")
	write(t, root, map[string]string{
		"go.work":                 "go 1.26\n\nuse (\n\t./app\n\t./resil\n)\n",
		"app/go.mod":              "module example.com/app\n\ngo 1.26\n",
		"app/a.go":                "package app\n",
		"resil/go.mod":            "module github.com/resilint/resilint/resil\n",
		"resil/group.go":          "package resil\n\nfunc NewGroup() {}\n",
		"vend/go.mod":             "module example.com/vend\n\ngo 1.26\n\nrequire golang.org/x/sync v0.1.0\n",
		"vend/v.go":               "package vend\n",
		"vend/vendor/modules.txt": "# golang.org/x/sync v0.1.0\n## explicit\ngolang.org/x/sync/errgroup\n",
		"vend/vendor/golang.org/x/sync/errgroup/e.go":  "package errgroup\n",
		"vend/vendor/golang.org/x/sync/semaphore/s.go": "package semaphore\n",
	})
	app := fakePass(t, filepath.Join(root, "app"), "a.go", "example.com/app")
	if !Resolves(app, "github.com/resilint/resilint/resil") || !Declares(app, "github.com/resilint/resilint/resil", "NewGroup") {
		t.Error("a module of the workspace resolves")
	}
	t.Setenv("GOWORK", "off")
	vend := fakePass(t, filepath.Join(root, "vend"), "v.go", "example.com/vend")
	if !Resolves(vend, "golang.org/x/sync/errgroup") {
		t.Error("a vendored package resolves")
	}
	if Resolves(vend, "golang.org/x/sync/semaphore") {
		t.Error("a package vendor/modules.txt does not list does not resolve")
	}
}

func TestResolvesGOPATH(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"src/fixes/f.go": "package fixes\n",
		"src/github.com/resilint/resilint/resil/resil.go": "package resil\n\nfunc Sleep() {}\n",
	})
	pass := fakePass(t, filepath.Join(root, "src", "fixes"), "f.go", "fixes")
	if !Resolves(pass, "github.com/resilint/resilint/resil") || !Declares(pass, "github.com/resilint/resilint/resil", "Sleep") {
		t.Error("GOPATH mode: a package of the same GOPATH resolves")
	}
	if Resolves(pass, "golang.org/x/sync/errgroup") {
		t.Error("GOPATH mode: a package that is not there does not resolve")
	}
}
