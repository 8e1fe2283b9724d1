package vetunit

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"fmt"
	"io"
	"os"
)

// PrintVersion answers go vet's -V=full: the executable's ID, which the go
// command puts in every package's cache key, so that results cached by one
// build of resilint are never reused by another. It is the content part of
// the Go build ID the linker wrote (a hash of the executable), read from the
// ELF note or the start of the text; without one, a SHA-256 of the file, as
// unitchecker computes it (which takes a tenth of a second on every run).
func PrintVersion(w io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	id := goBuildID(exe)
	if id == "" {
		f, err := os.Open(exe)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		id = fmt.Sprintf("%02x", h.Sum(nil))
	}
	_, err = fmt.Fprintf(w, "%s version devel comments-go-here buildID=%s\n", exe, id)
	return err
}

// goBuildID returns the Go build ID of an executable, or "".
func goBuildID(name string) string {
	if f, err := elf.Open(name); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			data, err := s.Data()
			// A note: namesz, descsz, type, "Go\0\0", then the ID.
			if err == nil && len(data) > 16 && bytes.Equal(data[12:16], []byte("Go\x00\x00")) {
				n := int(f.ByteOrder.Uint32(data[4:8]))
				if 16+n <= len(data) {
					return string(data[16 : 16+n])
				}
			}
		}
		return ""
	}
	// Other formats: the linker writes the ID at the start of the text.
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	i := bytes.Index(buf, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := buf[i+len(prefix):]
	j := bytes.Index(rest, []byte(suffix))
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}
