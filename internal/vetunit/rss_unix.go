//go:build unix

package vetunit

import (
	"runtime"
	"syscall"
)

// PeakRSS returns the largest resident set size of this process so far, in
// bytes (0 when unknown).
func PeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // kilobytes
}
