package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// engineModules returns the demo module and every end-to-end fixture module.
func engineModules(t *testing.T) []string {
	t.Helper()
	mods := []string{filepath.Join(repoRoot(t), "examples", "demo")}
	entries, err := os.ReadDir(filepath.Join(repoRoot(t), "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		dir := filepath.Join(repoRoot(t), "testdata", e.Name())
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			mods = append(mods, dir)
		}
	}
	if len(mods) < 5 {
		t.Fatalf("found only %d modules", len(mods))
	}
	return mods
}

// TestEnginesAgree: the vet engine (the default) and the in-process engine
// print the same findings with the same fixes (-json holds both), the same
// diff with -fix -diff, and exit with the same code, on the demo and on every
// fixture module, with test files reported and not reported (and, on three
// of them, not loaded).
func TestEnginesAgree(t *testing.T) {
	t.Parallel()
	for _, src := range engineModules(t) {
		t.Run(filepath.Base(src), func(t *testing.T) {
			t.Parallel()
			dir := copyModuleAt(t, src)
			sets := [][]string{{"-json"}, {"-json", "-include-tests"}}
			switch filepath.Base(src) {
			case "demo", "fixmod", "cli", "testdeps":
				sets = append(sets, []string{"-json", "-test=false"}, []string{"-fix", "-diff"})
			}
			for _, flags := range sets {
				args := append(append([]string(nil), flags...), "./...")
				vetOut, vetErr, vetCode := run(t, dir, resilint, args...)
				inOut, inErr, inCode := run(t, dir, resilint, append([]string{"-engine=inprocess"}, args...)...)
				if vetOut != inOut || vetCode != inCode {
					t.Errorf("resilint %s: the engines disagree\nvet engine (exit %d):\n%s\n%s\nin-process (exit %d):\n%s\n%s",
						strings.Join(args, " "), vetCode, vetOut, vetErr, inCode, inOut, inErr)
				}
				if flags[0] == "-json" && vetCode == 3 && !strings.Contains(vetOut, `"posn"`) {
					t.Errorf("resilint %s: exit 3 without a finding:\n%s", strings.Join(args, " "), vetOut)
				}
			}
		})
	}
}
