//go:build linux

package main_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY returns the two ends of a new pseudo-terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("TIOCSPTLCK: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	return m, s
}

// onTerminal runs resilint with its standard error on a terminal and
// returns what the terminal received.
func onTerminal(t *testing.T, dir string, args ...string) string {
	t.Helper()
	m, s := openPTY(t)
	defer m.Close()
	cmd := exec.Command(resilint, args...)
	cmd.Dir = dir
	cmd.Stderr = s
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&out, m) // ends with EIO once the slave is closed
		close(done)
	}()
	cmd.Wait()
	s.Close()
	<-done
	return out.String()
}

// TestProgress: on a terminal, a progress line (packages done of total) on
// standard error, erased before the findings; none with -json, and none
// when standard error is not a terminal.
func TestProgress(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "retrymod")
	tty := onTerminal(t, dir, "./...")
	if !strings.Contains(tty, "\rresilint: analysed ") || !strings.Contains(tty, " packages") {
		t.Errorf("no progress line on a terminal:\n%q", tty)
	}
	if !strings.Contains(tty, "\r\x1b[K") || !strings.Contains(tty, "retry amplification") {
		t.Errorf("the progress line is not erased before the findings:\n%q", tty)
	}
	if tty := onTerminal(t, dir, "-json", "./..."); strings.Contains(tty, "resilint: analysed") {
		t.Errorf("progress with -json:\n%q", tty)
	}
	if _, stderr, _ := run(t, dir, resilint, "./..."); strings.Contains(stderr, "analysed") {
		t.Errorf("progress on a pipe:\n%q", stderr)
	}
}
