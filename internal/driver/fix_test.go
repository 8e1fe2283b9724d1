package driver

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeFindings builds findings with one-edit fixes on a file: each fix
// replaces [start, end) with text.
func fakeFindings(t *testing.T, path string, src []byte, fixes ...edit) []Finding {
	t.Helper()
	var out []Finding
	for i, e := range fixes {
		out = append(out, Finding{
			Analyzer: "fake",
			Posn:     token.Position{Filename: path, Offset: e.start, Line: 1 + bytes.Count(src[:e.start], []byte("\n")), Column: 1},
			Message:  "m",
			Fixes: []Fix{{
				Message: "fix " + string(rune('a'+i)),
				Edits:   []Edit{{File: path, Start: e.start, End: e.end, New: []byte(e.text)}},
			}},
		})
	}
	return out
}

func TestApplyFixesConflict(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	src := []byte("package x\n\nvar a, b = 1, 2\n")
	if err := os.WriteFile(path, src, 0o640); err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(src, []byte("1, 2"))
	found := fakeFindings(t, path, src,
		edit{i, i + 1, "10"},     // 1 → 10
		edit{i, i + 4, "3, 4"},   // overlaps the first: conflict
		edit{i + 3, i + 4, "20"}, // 2 → 20
		edit{i + 3, i + 4, "20"}, // the same edit again (a test variant): applied once
	)
	var stderr bytes.Buffer
	d := &run{stderr: &stderr, stdout: &stderr}
	err := d.applyFixes(found)
	if err == nil || !strings.Contains(err.Error(), "1 conflicting fixes were not applied") {
		t.Errorf("err = %v, want a conflict error", err)
	}
	if !strings.Contains(stderr.String(), `fake fix "fix b" conflicts with another fix`) {
		t.Errorf("the conflict is not reported:\n%s", stderr.String())
	}
	got, _ := os.ReadFile(path)
	if want := "package x\n\nvar a, b = 10, 20\n"; string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o640 {
		t.Errorf("permissions changed to %v", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestApplyFixesInvalidResult(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	src := []byte("package x\n\nvar a = 1\n")
	os.WriteFile(path, src, 0o644)
	i := bytes.Index(src, []byte("1"))
	var stderr bytes.Buffer
	d := &run{stderr: &stderr, stdout: &stderr}
	err := d.applyFixes(fakeFindings(t, path, src, edit{i, i + 1, "1 +"}))
	if err == nil || !strings.Contains(err.Error(), "do not produce valid Go") {
		t.Errorf("err = %v, want an invalid-Go error", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, src) {
		t.Errorf("the file was changed:\n%s", got)
	}
}

func TestWriteAtomicFailure(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	os.WriteFile(path, []byte("old"), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if err := writeAtomic(path, []byte("new")); err == nil {
		t.Error("writing into a read-only directory succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file is %q, want it untouched", got)
	}
}

// TestWriteAtomicRenameFailure: when the final rename fails, the temporary
// file is removed and the target is untouched (works as root too: renaming
// a file over a non-empty directory fails for everyone).
func TestWriteAtomicRenameFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "x.go")
	if err := os.MkdirAll(filepath.Join(target, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(target, []byte("new")); err == nil {
		t.Fatal("renaming over a non-empty directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "x.go" || !entries[0].IsDir() {
		t.Errorf("directory after the failure: %v", entries)
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
}
