package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

// listPkg is one package of go list -e -json -test [-deps].
type listPkg struct {
	ImportPath   string // the ID: "p", "p [p.test]", "p_test [p.test]", "p.test"
	Name         string
	ForTest      string
	DepOnly      bool
	Dir          string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct{ Main bool }
	Error        *listError
	DepsErrors   []*listError
	Deps         []string
	Imports      []string
}

type listError struct {
	Pos string
	Err string
}

func (e *listError) String() string {
	if e.Pos != "" && !strings.HasPrefix(e.Err, e.Pos) {
		return relPath(e.Pos) + ": " + e.Err
	}
	return e.Err
}

// listing is the package graph of the patterns.
type listing struct {
	pkgs  []*listPkg
	byID  map[string]*listPkg
	roots []*listPkg // the packages the patterns match (not their test variants)
}

// goList lists the patterns' packages and their test variants, with their
// dependencies and load errors when deps is set.
func (d *run) goList(patterns, extra []string, deps bool) (*listing, error) {
	args := []string{"list", "-e", "-test", "-json=ImportPath,Name,ForTest,DepOnly,Dir,GoFiles,TestGoFiles,XTestGoFiles,Module,Error,DepsErrors,Deps,Imports"}
	args = append(args, extra...)
	if deps {
		args = append(args, "-deps")
	}
	if d.tags != "" {
		args = append(args, "-tags="+d.tags)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go list: %s", msg)
	}
	pkgs, err := decodeList(out)
	if err != nil {
		return nil, err
	}
	l := &listing{pkgs: pkgs, byID: map[string]*listPkg{}}
	for _, p := range pkgs {
		l.byID[p.ImportPath] = p
		if !p.DepOnly && p.ForTest == "" && !strings.HasSuffix(p.ImportPath, ".test") {
			l.roots = append(l.roots, p)
		}
	}
	return l, nil
}

// decodeList reads go list -json's stream of packages.
func decodeList(out []byte) ([]*listPkg, error) {
	var pkgs []*listPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listPkg)
		if err := dec.Decode(p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

func (l *listing) rootPaths() []string {
	var out []string
	for _, p := range l.roots {
		out = append(out, p.ImportPath)
	}
	return out
}

// unitsOf returns the IDs of the units go vet runs for a root: the package
// with its test files, or itself, and its external test package.
func (l *listing) unitsOf(p *listPkg) []string {
	var out []string
	if t := l.byID[p.ImportPath+" ["+p.ImportPath+".test]"]; t != nil {
		out = append(out, t.ImportPath)
	} else if len(p.GoFiles) > 0 {
		out = append(out, p.ImportPath)
	}
	if x := l.byID[p.ImportPath+"_test ["+p.ImportPath+".test]"]; x != nil {
		out = append(out, x.ImportPath)
	}
	return out
}

// allMain reports whether every package of ids is a package of a main
// module (the module, or one of its workspace).
func (l *listing) allMain(ids []string) bool {
	for _, id := range ids {
		p := l.byID[id]
		if p == nil || p.Module == nil || !p.Module.Main {
			return false
		}
	}
	return true
}

// expectedUnits returns the IDs of every root unit.
func (l *listing) expectedUnits() []string {
	var out []string
	for _, p := range l.roots {
		out = append(out, l.unitsOf(p)...)
	}
	return out
}

// loadErr returns the load error of a package or of one of its
// dependencies, if any.
func (l *listing) loadErr(id string) bool {
	p := l.byID[id]
	return p != nil && (p.Error != nil || len(p.DepsErrors) > 0)
}

// loadableRoots returns the roots that go vet can load: neither they, nor
// their test packages, nor any of their dependencies have load errors.
func (l *listing) loadableRoots() []string {
	var out []string
	for _, p := range l.roots {
		ok := !l.loadErr(p.ImportPath)
		for _, id := range l.unitsOf(p) {
			ok = ok && !l.loadErr(id)
		}
		if ok {
			out = append(out, p.ImportPath)
		}
	}
	return out
}

// testBroken returns the roots that load while a test package of theirs
// does not (a test-only import the module does not resolve): with their
// test files hidden, go vet analyses them as their importers see them.
func (l *listing) testBroken() []*listPkg {
	var out []*listPkg
	for _, p := range l.roots {
		if l.loadErr(p.ImportPath) || len(p.GoFiles)+len(p.CgoFiles) == 0 {
			continue
		}
		for _, id := range l.unitsOf(p) {
			if l.loadErr(id) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// reportFailures names every package that failed to load, compile or
// type-check, with its errors, and every root unit that could therefore not
// be analysed, with the failed packages it depends on. It reports whether
// anything failed.
func reportFailures(w io.Writer, l *listing, res *vetResult) bool {
	failed := map[string][]string{} // package ID -> error lines
	var order []string
	fail := func(id string, lines ...string) {
		if _, ok := failed[id]; !ok {
			order = append(order, id)
			failed[id] = nil
		}
		for _, line := range lines {
			// go vet's output and the unit may both carry one error, one
			// with an absolute path and one with a relative one: compared
			// as printed.
			line = relPath(line)
			if !slices.Contains(failed[id], line) {
				failed[id] = append(failed[id], line)
			}
		}
	}
	for _, p := range l.pkgs {
		if p.Error != nil {
			fail(p.ImportPath, p.Error.String())
		}
	}
	// go vet prints a failed action's output under "# ID".
	var loose []string
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(res.stderr))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if id, ok := strings.CutPrefix(line, "# "); ok {
			cur = id
			continue
		}
		if line == "" {
			continue
		}
		if cur != "" && l.byID[cur] != nil {
			if l.byID[cur].Error == nil { // load errors are named from go list
				fail(cur, strings.TrimPrefix(strings.TrimPrefix(line, "vet: "), "resilint: "))
			}
			continue
		}
		if !loadErrorLine(l, line) {
			loose = append(loose, line)
		}
	}
	analysed := map[string]bool{}
	for _, u := range res.units {
		analysed[u.ID] = true
		if u.Error != "" {
			fail(u.ID, strings.Split(u.Error, "\n")...)
		}
	}
	for _, id := range order {
		for _, line := range failed[id] {
			fmt.Fprintf(w, "resilint: package %s: %s\n", id, line)
		}
	}
	for _, line := range loose {
		fmt.Fprintf(w, "resilint: %s\n", line)
	}
	any := len(order) > 0 || len(loose) > 0 || res.code != 0
	for _, p := range l.roots {
		for _, id := range l.unitsOf(p) {
			if analysed[id] || failed[id] != nil {
				continue
			}
			any = true
			cause, via := l.brokenDep(id, p.ImportPath, failed)
			switch {
			case cause == "":
				fmt.Fprintf(w, "resilint: package %s: not analysed (see the errors above)\n", id)
			case via == cause:
				fmt.Fprintf(w, "resilint: package %s: not analysed: it imports %s, which does not load\n", id, cause)
			default:
				fmt.Fprintf(w, "resilint: package %s: not analysed: it imports %s, which depends on %s, which does not load\n", id, via, cause)
			}
		}
	}
	return any
}

// brokenDep returns a failed package that unit id depends on, and the
// import of id through which it does (for a test package, the package it
// tests counts as imported).
func (l *listing) brokenDep(id, path string, failed map[string][]string) (cause, via string) {
	p := l.byID[id]
	if p == nil {
		return "", ""
	}
	imports := append([]string(nil), p.Imports...)
	if id != path {
		imports = append(imports, path, path+" ["+path+".test]")
	}
	sort.Strings(imports)
	for _, imp := range imports {
		if imp != id && failed[imp] != nil {
			return imp, imp
		}
	}
	for _, imp := range imports {
		q := l.byID[imp]
		if q == nil || imp == id {
			continue
		}
		deps := append([]string(nil), q.Deps...)
		sort.Strings(deps)
		for _, dep := range deps {
			if failed[dep] != nil {
				return dep, imp
			}
		}
	}
	return "", ""
}

// loadErrorLine reports whether a line of go vet's standard error repeats a
// load error that go list reported (go vet prints them before it stops).
func loadErrorLine(l *listing, line string) bool {
	for _, p := range l.pkgs {
		for _, e := range append([]*listError{p.Error}, p.DepsErrors...) {
			if e == nil {
				continue
			}
			first, _, _ := strings.Cut(e.Err, "\n")
			if strings.Contains(line, first) || strings.HasPrefix(strings.TrimSpace(line), "go get ") {
				return true
			}
		}
	}
	return false
}
