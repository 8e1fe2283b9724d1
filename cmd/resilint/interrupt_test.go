//go:build unix

package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterrupt: Ctrl-C (SIGINT to the whole process group: the command, go
// vet and the units running) while packages are being analysed leaves no
// output file, no temporary file, and a cache from which the next run prints
// exactly the findings of a clean run.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "retrymod")
	cache := t.TempDir()
	events := filepath.Join(t.TempDir(), "events")
	if err := os.WriteFile(events, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(resilint, "-format", "sarif:out.sarif,text", "./...")
	cmd.Dir = dir
	// The units append a line to the events file when they finish: the
	// test interrupts once some have, while the others run.
	cmd.Env = append(os.Environ(), "GOCACHE="+cache, "RESILINT_ENGINE_EVENTS="+events)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		data, _ := os.ReadFile(events)
		if bytes.Count(data, []byte("\tfacts\t")) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no unit ran:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Errorf("interrupted run: %v, want exit 130:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("the interrupted run does not say so:\n%s", stderr.String())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == "out.sarif" || strings.Contains(e.Name(), ".resilint-") {
			t.Errorf("the interrupted run left %s", e.Name())
		}
	}

	// The next run on the same cache agrees with the in-process engine.
	got, stderr2, code := runEnv(t, dir, []string{"GOCACHE=" + cache}, resilint, "-json", "./...")
	want, _, wantCode := run(t, dir, resilint, "-engine=inprocess", "-json", "./...")
	if got != want || code != wantCode {
		t.Errorf("after the interrupt: exit %d\n%s\n%s\nwant exit %d\n%s", code, got, stderr2, wantCode, want)
	}
}
