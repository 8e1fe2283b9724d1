package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/config"
)

// TestSharedRootTests: the empty test files are kept in one directory
// between runs: one per package name (names that differ only in case, or
// with letters outside ASCII, get files of their own), written once, written
// again when they hold something else, left in place when a run ends, and
// no temporary file is left beside them.
func TestSharedRootTests(t *testing.T) {
	dir := t.TempDir()
	names := []string{"abc", "Abc", "x_2", "café", "p70"}
	files := map[string]string{}
	for _, name := range names {
		f := sharedRootTest(dir, name)
		if f == "" || filepath.Dir(f) != dir {
			t.Fatalf("sharedRootTest(%q) = %q", name, f)
		}
		if data, _ := os.ReadFile(f); string(data) != "package "+name+"\n" {
			t.Errorf("%s holds %q", f, data)
		}
		for other, g := range files {
			if g == f || filepath.Base(g) == filepath.Base(f) || strings.EqualFold(g, f) {
				t.Errorf("%q and %q share %s", name, other, f)
			}
		}
		files[name] = f
	}
	// Used again: not written.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(files["abc"], old, old)
	if f := sharedRootTest(dir, "abc"); f != files["abc"] {
		t.Errorf("second sharedRootTest(abc) = %q, want %q", f, files["abc"])
	}
	if st, _ := os.Stat(files["abc"]); !st.ModTime().Equal(old) {
		t.Errorf("%s was written again", files["abc"])
	}
	// Something else in it: written again.
	os.WriteFile(files["Abc"], []byte("package other\n"), 0o644)
	if f := sharedRootTest(dir, "Abc"); f != files["Abc"] {
		t.Errorf("sharedRootTest(Abc) = %q, want %q", f, files["Abc"])
	}
	if data, _ := os.ReadFile(files["Abc"]); string(data) != "package Abc\n" {
		t.Errorf("%s holds %q after it was repaired", files["Abc"], data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(names) {
		t.Errorf("%d files in the directory, want %d", len(entries), len(names))
	}
	if f := sharedRootTest("", "abc"); f != "" {
		t.Errorf("without a directory: %q", f)
	}

	// An overlay puts them over the roots' test files and leaves them
	// when it is closed; without the directory it writes its own.
	for _, shared := range []string{dir, ""} {
		ov, _, err := newVetOverlay(nil)
		if err != nil {
			t.Fatal(err)
		}
		ov.shared = shared
		root := filepath.Join(t.TempDir(), "p")
		if err := ov.addRootTest(root, "abc"); err != nil {
			t.Fatal(err)
		}
		b := ov.replace[filepath.Join(root, rootTestFile)]
		if shared != "" && b != files["abc"] || shared == "" && filepath.Dir(b) != ov.dir {
			t.Errorf("shared %q: the root's test file is %q", shared, b)
		}
		if data, _ := os.ReadFile(b); string(data) != "package abc\n" {
			t.Errorf("shared %q: %s holds %q", shared, b, data)
		}
		ov.close()
		if _, err := os.Stat(files["abc"]); err != nil {
			t.Errorf("shared %q: after close: %v", shared, err)
		}
	}
}

// TestTestOnlyFromUnits: the imports of a package's test files are read
// from its test variant's view, where the unit recorded them, even when the
// package itself (whose view lists only its own files) is met first: the
// file on disk is not parsed again (here it no longer parses, so it could
// not be).
func TestTestOnlyFromUnits(t *testing.T) {
	dir := t.TempDir()
	a, atest, b := filepath.Join(dir, "a", "a.go"), filepath.Join(dir, "a", "a_test.go"), filepath.Join(dir, "b", "b.go")
	for name, src := range map[string]string{a: "package a\n", atest: "not Go", b: "package b\n"} {
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(src), 0o644)
	}
	res := &Result{Packages: []Package{
		{ID: "m/a", Path: "m/a", Files: []string{a}, Imports: map[string][]string{a: nil}},
		{ID: "m/a [m/a.test]", Path: "m/a", Files: []string{a, atest}, Imports: map[string][]string{a: nil, atest: {"m/b"}}},
		{ID: "m/b", Path: "m/b", Files: []string{b}, Imports: map[string][]string{b: nil}},
	}}
	d := &run{cfg: config.Default()}
	if got := d.testOnly(res); !got["m/b"] || got["m/a"] {
		t.Errorf("testOnly = %v, want m/b alone", got)
	}
}
