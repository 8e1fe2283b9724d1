package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Writing fixed files, as gofmt -w does: a symbolic link is written
// through to its target; a file with several hard links is written in
// place, after a backup copy that restores it if the write fails; any
// other file is written to a temporary file that is renamed over it, so
// that nobody ever sees it half-written. The file's mode is kept. A
// read-only file is not written.

var errReadOnly = errors.New("is read-only")

// writable reports why a file cannot be fixed.
func (st *fixState) writable(name string) error {
	if err, ok := st.readOnly[name]; ok {
		return err
	}
	err := checkFixable(name)
	st.readOnly[name] = err
	return err
}

func checkFixable(name string) error {
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("is not a regular file")
	}
	if info.Mode().Perm()&0o222 == 0 {
		return errReadOnly
	}
	return nil
}

// writeFixed writes data over a file whose content was orig.
func writeFixed(name string, orig, data []byte) error {
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return fmt.Errorf("writing %s: %v", relPath(name), err)
	}
	info, err := os.Stat(target)
	if err != nil {
		return fmt.Errorf("writing %s: %v", relPath(name), err)
	}
	if info.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s %v; not written", relPath(name), errReadOnly)
	}
	now, err := os.ReadFile(target)
	if err != nil {
		return fmt.Errorf("writing %s: %v", relPath(name), err)
	}
	if !bytes.Equal(now, orig) {
		return fmt.Errorf("%s changed while resilint ran; not written", relPath(name))
	}
	if hardLinked(info) {
		return writeInPlace(target, orig, data, info.Mode())
	}
	return writeAtomic(target, data)
}

// writeInPlace writes data into a file in place (keeping its hard links),
// after a backup copy next to it; when the write fails, the backup is
// copied back.
func writeInPlace(name string, orig, data []byte, mode fs.FileMode) error {
	backup, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".resilint-backup-*")
	if err != nil {
		return fmt.Errorf("writing %s: cannot make a backup: %v", relPath(name), err)
	}
	bname := backup.Name()
	if _, err := backup.Write(orig); err != nil {
		backup.Close()
		os.Remove(bname)
		return fmt.Errorf("writing %s: cannot make a backup: %v", relPath(name), err)
	}
	if err := backup.Sync(); err != nil {
		backup.Close()
		os.Remove(bname)
		return fmt.Errorf("writing %s: cannot make a backup: %v", relPath(name), err)
	}
	backup.Close()
	if err := writeThrough(name, data, mode); err != nil {
		if rerr := writeThrough(name, orig, mode); rerr != nil {
			return fmt.Errorf("writing %s: %v; restoring it failed too (%v): the original is in %s", relPath(name), err, rerr, bname)
		}
		os.Remove(bname)
		return fmt.Errorf("writing %s: %v (restored)", relPath(name), err)
	}
	os.Remove(bname)
	return nil
}

func writeThrough(name string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAtomic writes data to a temporary file next to name and renames it
// over name, keeping name's permissions.
func writeAtomic(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".resilint-*")
	if err != nil {
		return err
	}
	cleanup := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return cleanup(err)
	}
	if err := tmp.Sync(); err != nil {
		return cleanup(err)
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		return cleanup(err)
	}
	if err := tmp.Close(); err != nil {
		return cleanup(err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %v", name, err)
	}
	return nil
}
