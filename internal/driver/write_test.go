package driver

import (
	"os"
	"path/filepath"
	"testing"
)

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

// TestWriteFixedChanged: a file changed since it was read is not written.
func TestWriteFixedChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(path, []byte("changed"), 0o644)
	if err := writeFixed(path, []byte("old"), []byte("new")); err == nil {
		t.Error("a file that changed meanwhile was written")
	}
	if got, _ := os.ReadFile(path); string(got) != "changed" {
		t.Errorf("the file is %q", got)
	}
}

// TestWriteInPlaceRestores: a hard-linked file whose write fails is
// restored from its backup, and the backup removed.
func TestWriteInPlaceRestores(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	os.WriteFile(path, []byte("old"), 0o644)
	os.Link(path, filepath.Join(dir, "y.go"))
	if err := writeInPlace(path, []byte("old"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "y.go")); string(got) != "new" {
		t.Errorf("the other link reads %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("backup left behind: %v", entries)
	}
}
