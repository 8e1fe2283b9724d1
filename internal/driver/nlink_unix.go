//go:build unix

package driver

import (
	"io/fs"
	"syscall"
)

// hardLinked reports whether a file has more than one hard link.
func hardLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
