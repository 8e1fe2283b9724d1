package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TestLoadErrors (issue 13 rule 12): a package that fails to load (a missing
// module), to type-check as a dependency, or to parse is named with its
// error; every package that therefore could not be analysed is named; the
// other packages are analysed; the exit code is 1.
func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "broken")
	writeFile(t, filepath.Join(dir, "user", "user.go"), "package user\n\nimport \"example.com/broken/bad\"\n\nvar X = bad.F()\n")
	writeFile(t, filepath.Join(dir, "miss", "miss.go"), "package miss\n\nimport \"example.com/nosuch/pkg\"\n\nvar X = pkg.F()\n")
	writeFile(t, filepath.Join(dir, "usemiss", "usemiss.go"), "package usemiss\n\nimport \"example.com/broken/miss\"\n\nvar X = miss.X\n")
	_, stderr, code := run(t, dir, resilint, "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"miss/miss.go:3:8: no required module provides package example.com/nosuch/pkg",
		"resilint: package example.com/broken/bad: bad/bad.go:3:23: cannot use",
		"resilint: package example.com/broken/syntax: syntax/syntax.go:3:9: expected ')'",
		"resilint: package example.com/broken/miss: not analysed: it imports example.com/nosuch/pkg, which does not load",
		"resilint: package example.com/broken/usemiss: not analysed: it imports example.com/broken/miss, which depends on example.com/nosuch/pkg, which does not load",
		"resilint: package example.com/broken/user: not analysed: it imports example.com/broken/bad, which does not load",
		"ok/ok.go:5:55: http.Get has no deadline",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, stderr)
		}
	}
	for _, bad := range []string{"panic:", "goroutine 1 ["} {
		if strings.Contains(stderr, bad) {
			t.Errorf("output contains %q:\n%s", bad, stderr)
		}
	}
}

// TestBuildTags: -tags and GOFLAGS=-tags=... select the files analysed, on
// both engines.
func TestBuildTags(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "cli")
	writeFile(t, filepath.Join(dir, "tagged", "tagged.go"), "//go:build special\n\npackage tagged\n\nimport \"net/http\"\n\nfunc Get(url string) (*http.Response, error) { return http.Get(url) }\n")
	writeFile(t, filepath.Join(dir, "tagged", "plain.go"), "package tagged\n")
	const finding = "tagged/tagged.go:7"
	for _, engine := range []string{"-engine=vet", "-engine=inprocess"} {
		if got := lines(t, dir, engine, "./tagged/..."); len(got) != 0 {
			t.Errorf("%s without the tag: %v", engine, got)
		}
		if got := lines(t, dir, engine, "-tags=special", "./tagged/..."); len(got) != 1 || !strings.HasPrefix(got[0], finding) {
			t.Errorf("%s -tags=special: %v, want %s", engine, got, finding)
		}
		stdout, stderr, _ := runEnv(t, dir, []string{"GOFLAGS=-tags=special"}, resilint, engine, "-json", "./tagged/...")
		if !strings.Contains(stdout, filepath.Join("tagged", "tagged.go")+":7") {
			t.Errorf("%s with GOFLAGS=-tags=special: no finding:\n%s\n%s", engine, stdout, stderr)
		}
	}
}

// TestTestOnlyImports (issue 15): packages whose test files import a package
// the module does not resolve (fetch: an internal test, xfetch: an external
// one) are still analysed. With -test=false the vet engine reports exactly
// the in-process engine's findings, with the same exit status (3: findings,
// no error), since test files are not asked for; with test packages, both
// engines report the production findings, name the test packages as not
// analysed, and exit 1.
func TestTestOnlyImports(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "testdeps")
	for _, tc := range []struct {
		flag string
		code int
		errs []string
	}{
		{"-test=false", 3, nil},
		{"-test=true", 1, []string{
			"resilint: package example.com/testonly/helper: fetch/fetch_test.go:6:2: no required module provides package example.com/testonly/helper",
			"resilint: package example.com/testdeps/fetch [example.com/testdeps/fetch.test]: not analysed: it imports example.com/testonly/helper, which does not load",
			"resilint: package example.com/testdeps/xfetch_test [example.com/testdeps/xfetch.test]: not analysed: it imports example.com/testonly/helper, which does not load",
		}},
	} {
		vetOut, vetErr, vetCode := run(t, dir, resilint, "-json", tc.flag, "./...")
		inOut, inErr, inCode := run(t, dir, resilint, "-engine=inprocess", "-json", tc.flag, "./...")
		if vetOut != inOut || vetCode != inCode {
			t.Errorf("%s: the engines disagree\nvet engine (exit %d):\n%s\n%s\nin-process (exit %d):\n%s\n%s", tc.flag, vetCode, vetOut, vetErr, inCode, inOut, inErr)
		}
		if vetCode != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.flag, vetCode, tc.code, vetErr)
		}
		var got []string
		for _, f := range decodeFindings(t, vetOut) {
			got = append(got, filepath.Base(f.Posn[:strings.Index(f.Posn, ".go:")])+f.Posn[strings.Index(f.Posn, ".go:"):])
		}
		sort.Strings(got) // the -json tree is a map
		want := []string{"fetch.go:7:55", "xfetch.go:7:56"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: findings at %v, want %v", tc.flag, got, want)
		}
		for _, w := range tc.errs {
			if !strings.Contains(vetErr, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.flag, w, vetErr)
			}
		}
	}
	// A package of test files only, named: nothing to analyse, no error.
	for _, engine := range []string{"-engine=vet", "-engine=inprocess"} {
		if _, stderr, code := run(t, dir, resilint, engine, "-test=false", "./onlytests"); code != 0 {
			t.Errorf("%s -test=false ./onlytests: exit %d, want 0\n%s", engine, code, stderr)
		}
	}
}

// TestTestBrokenNotAnalysedTwice: with test packages on, the second go vet
// run for the module's packages whose test packages do not load (their test
// files hidden) shares the first run's results: no package is analysed twice
// for the same role (a run with a cache key of its own would analyse every
// dependency again).
func TestTestBrokenNotAnalysedTwice(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "testdeps")
	ev := newEvents(t)
	if _, stderr, code := runEnv(t, dir, ev.env, resilint, "./..."); code != 1 {
		t.Fatalf("resilint ./...: exit %d, want 1\n%s", code, stderr)
	}
	runs := map[string]int{}
	for pkg, modes := range ev.read(t) {
		for _, m := range modes {
			if m == "facts" {
				runs[pkg]++
			}
		}
	}
	for pkg, n := range runs {
		if n > 1 {
			t.Errorf("%s analysed %d times for its facts", pkg, n)
		}
	}
	if len(runs) == 0 {
		t.Errorf("no dependency analysed for its facts")
	}
}

// events is the file the units log their runs to (RESILINT_ENGINE_EVENTS),
// read back as package -> the modes it ran in; env runs resilint with it
// and an empty GOCACHE of its own.
type events struct {
	path string
	env  []string
}

func newEvents(t *testing.T) *events {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return &events{path, []string{"GOCACHE=" + t.TempDir(), "RESILINT_ENGINE_EVENTS=" + path}}
}

func (e *events) read(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(e.path)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 2 {
			runs[f[0]] = append(runs[f[0]], f[1])
		}
	}
	return runs
}

// TestRootAfterDependency: with -test=false, a package analysed first only
// for an importer's facts (resilint ./user) and then as a root (resilint
// ./fetch) is reported: the go command's key of a vet run does not tell the
// two apart, and the root replayed the facts-only run's empty output.
func TestRootAfterDependency(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "testdeps")
	if _, stderr, code := run(t, dir, resilint, "-test=false", "./user"); code != 0 {
		t.Fatalf("resilint -test=false ./user: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := run(t, dir, resilint, "-test=false", "./fetch")
	if code != 3 || !strings.Contains(stdout+stderr, filepath.Join("fetch", "fetch.go")+":7:55: http.Get has no deadline") {
		t.Errorf("resilint -test=false ./fetch after ./user: exit %d, want 3 and the finding at fetch.go:7:55\n%s%s", code, stdout, stderr)
	}
}

// TestRootAfterDependencyWithTests: with test packages on, a package without
// test files is analysed for its findings when it is a root, whatever an
// earlier run cached for it as a dependency (its facts only), and a run in
// which it is only a dependency prints none of the findings an earlier run
// cached for it as a root. The go command's key does not tell the two runs
// apart; the driver's empty test file for every root of a directory pattern
// does.
func TestRootAfterDependencyWithTests(t *testing.T) {
	t.Parallel()
	const finding = "http.Get has no deadline"
	for _, order := range [][2]string{{"./r", "./p"}, {"./p", "./r"}, {"example.com/rootdep/r", "example.com/rootdep/p"}, {"./r", "example.com/rootdep/p..."}} {
		dir := copyModule(t, "rootdep")
		for _, pattern := range order {
			stdout, stderr, code := run(t, dir, resilint, pattern)
			out := stdout + stderr
			wantCode, wantFinding := 0, false
			if strings.HasSuffix(pattern, "/p") || strings.HasSuffix(pattern, "/p...") {
				wantCode, wantFinding = 3, true
			}
			if code != wantCode || strings.Contains(out, finding) != wantFinding {
				t.Errorf("resilint %s (after %v): exit %d, want %d, finding printed %v, want %v\n%s",
					pattern, order, code, wantCode, !wantFinding, wantFinding, out)
			}
		}
	}
}

// TestOwnPackagesAnalysedOnce: with test packages on, a package of the
// module without test files that is both a root and an importer's
// dependency is analysed once, in one vet run for its facts and its
// findings, not a second time as a test package of an empty test file.
func TestOwnPackagesAnalysedOnce(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "rootdep")
	ev := newEvents(t)
	stdout, stderr, code := runEnv(t, dir, ev.env, resilint, "./...")
	if code != 3 || !strings.Contains(stdout+stderr, "http.Get has no deadline") {
		t.Fatalf("resilint ./...: exit %d, want 3 and the finding\n%s%s", code, stdout, stderr)
	}
	runs := ev.read(t)
	for _, pkg := range []string{"example.com/rootdep/p", "example.com/rootdep/r"} {
		if got := runs[pkg]; len(got) != 1 || got[0] != "root" {
			t.Errorf("%s: analysed as %q, want once for its findings", pkg, got)
		}
	}
}

// TestWorkspaceDependency: in a workspace, a package of another workspace
// module that the root module's packages import is only a dependency of
// resilint ./... at the root (its unit prints its findings as a package of
// a main module): they are not reported there; run as a root in its own
// module, it reports them.
func TestWorkspaceDependency(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.work"), "go 1.24\n\nuse (\n\t.\n\t./sub\n)\n")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/root\n\ngo 1.24\n\nrequire example.com/sub v0.0.0\n")
	writeFile(t, filepath.Join(dir, "use", "use.go"), "package use\n\nimport \"example.com/sub/fetch\"\n\nfunc Do() { fetch.Get(\"http://example.com\") }\n")
	writeFile(t, filepath.Join(dir, "sub", "go.mod"), "module example.com/sub\n\ngo 1.24\n")
	writeFile(t, filepath.Join(dir, "sub", "fetch", "fetch.go"), "package fetch\n\nimport \"net/http\"\n\nfunc Get(u string) (*http.Response, error) { return http.Get(u) }\n")
	env := []string{"GOCACHE=" + t.TempDir(), "GOFLAGS="}
	const finding = "http.Get has no deadline"
	stdout, stderr, code := runEnv(t, dir, env, resilint, "./...")
	if code != 0 || strings.Contains(stdout+stderr, finding) {
		t.Errorf("resilint ./... at the root: exit %d, want 0 and no finding of a dependency\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = runEnv(t, filepath.Join(dir, "sub"), env, resilint, "./...")
	if code != 3 || strings.Count(stdout+stderr, finding) != 1 {
		t.Errorf("resilint ./... in sub: exit %d, want 3 and the finding once\n%s%s", code, stdout, stderr)
	}
}

// TestTypeErrorWithoutList: a root whose test file does not type-check
// (go vet exits 0, the unit carries the error) is named with its error, the
// other packages are analysed, exit 1, and the driver does not ask go list
// for the package graph to report it: every unit ran, so there is nothing
// the graph would explain (go list -deps -test cost a third of vitess's
// cached re-run).
func TestTypeErrorWithoutList(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands for the go command")
	}
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/tt\n\ngo 1.22\n")
	const get = "import \"net/http\"\n\nfunc Get(url string) (*http.Response, error) { return http.Get(url) }\n"
	writeFile(t, filepath.Join(dir, "p", "p.go"), "package p\n\n"+get)
	writeFile(t, filepath.Join(dir, "p", "p_test.go"), "package p\n\nvar _ = undefinedName\n")
	writeFile(t, filepath.Join(dir, "q", "q.go"), "package q\n\n"+get)
	writeFile(t, filepath.Join(dir, "q", "q_test.go"), "package q_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n")
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	writeFile(t, filepath.Join(bin, "go"), "#!/bin/sh\necho \"$*\" >> '"+log+"'\nexec '"+goCmd+"' \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	stdout, stderr, code := runEnv(t, dir, []string{path}, resilint, "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	// p's own files type-check: its finding stands beside its test
	// variant's error (TestTestFileTypeError).
	want := "resilint: package example.com/tt/p [example.com/tt/p.test]: " + filepath.Join("p", "p_test.go") + ":3:9: undefined: undefinedName\n" +
		filepath.Join("p", "p.go") + ":5:55: http.Get has no deadline"
	if !strings.HasPrefix(stdout+stderr, want) || !strings.Contains(stderr, filepath.Join("q", "q.go")+":5:55: http.Get has no deadline") || strings.Count(stderr, "\n") != 3 {
		t.Errorf("output:\n%s%s\nwant the type error, then p's and q's findings, alone:\n%s", stdout, stderr, want)
	}
	data, _ := os.ReadFile(log)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "list ") && strings.Contains(line, "-deps") {
			t.Errorf("the driver ran go %s", line)
		}
	}
}

// TestTestFileTypeError (issue 13 rule 12): a package whose own files
// type-check while one of its test files does not is analysed: its findings
// are reported, its test variant is named once with the error, the exit code
// is 1, and both engines print the same.
func TestTestFileTypeError(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "broken")
	writeFile(t, filepath.Join(dir, "ok", "ok_test.go"), "package ok\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { var x int = \"s\"; _ = x }\n")
	const variant = "resilint: package example.com/broken/ok [example.com/broken/ok.test]: ok/ok_test.go:5:40: cannot use \"s\""
	var outs []string
	for _, engine := range []string{"-engine=vet", "-engine=inprocess"} {
		stdout, stderr, code := run(t, dir, resilint, engine, "./ok")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", engine, code, stderr)
		}
		if !strings.Contains(stdout+stderr, "ok/ok.go:5:55: http.Get has no deadline") {
			t.Errorf("%s: the package's own finding is missing:\n%s%s", engine, stdout, stderr)
		}
		if n := strings.Count(stderr, variant); n != 1 {
			t.Errorf("%s: the test variant's error is named %d times, want once:\n%s", engine, n, stderr)
		}
		outs = append(outs, stdout+stderr)
	}
	if outs[0] != outs[1] {
		t.Errorf("the engines disagree:\nvet:\n%s\nin-process:\n%s", outs[0], outs[1])
	}
}
