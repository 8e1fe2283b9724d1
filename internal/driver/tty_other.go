//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package driver

import "os"

// isTerminal reports whether f is a terminal; on this system, whether it is
// a character device.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
