package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// snapshot returns the contents of a module's .go files by path relative
// to dir.
func snapshotGo(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			data, _ := os.ReadFile(path)
			rel, _ := filepath.Rel(dir, path)
			files[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return files
}

// TestFixOnlyResolvable: in a module that does not require resil, no fix
// imports it (issue 14.2): the findings whose fix would need it stay, with
// their advice, and the exit code says findings are left (3); the other
// fixes are written and the module still builds. (A fix that would not
// compile is not written: internal/driver's TestFixRounds.)
func TestFixOnlyResolvable(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "fixmod")
	// The breakers package uses resil itself (the breaker fix is only for
	// resil's own registry breaker): it goes with the requirement.
	if err := os.RemoveAll(filepath.Join(dir, "breakers")); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "go", "mod", "edit", "-droprequire=github.com/resilint/resilint/resil", "-dropreplace=github.com/resilint/resilint/resil")
	before := snapshotGo(t, dir)
	_, stderr, code := run(t, dir, resilint, "-fix", "./...")
	if code != 3 {
		t.Errorf("exit %d, want 3 (findings left)", code)
	}
	for _, want := range []string{
		"retry/retry.go:36:3: retry loop waits the same time.Second before every attempt",
		"store/store.go:17: ctxdeadline: Use ExecContext with ctx\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "not applied") {
		t.Errorf("a fix was offered that could not be applied:\n%s", stderr)
	}
	after := snapshotGo(t, dir)
	if after["retry/retry.go"] != before["retry/retry.go"] {
		t.Errorf("a fix importing resil was written:\n%s", after["retry/retry.go"])
	}
	if after["store/store.go"] == before["store/store.go"] {
		t.Error("the fixes that compile were not written")
	}
	if _, stderr, code := run(t, dir, "go", "vet", "./..."); code != 0 {
		t.Fatalf("the module does not build after -fix:\n%s", stderr)
	}
}

// TestFixCompose: two fixes that both add imports to one import block
// compose in one run, and a second -fix changes nothing (issue 14.5).
func TestFixCompose(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "fixcompose")
	if _, stderr, code := run(t, dir, resilint, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d, want 0: %s", code, stderr)
	}
	got := snapshotGo(t, dir)["compose/compose.go"]
	for _, want := range []string{"resil.NewGroup(context.Background(), 16)", "context.WithTimeout(context.Background(), 10*time.Second)",
		"import (\n\t\"context\"\n\t\"database/sql\"\n\t\"time\"\n\n\t\"github.com/resilint/resilint/resil\"\n)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the fixed file lacks %q:\n%s", want, got)
		}
	}
	if _, stderr, code := run(t, dir, "go", "vet", "./..."); code != 0 {
		t.Fatalf("the fixed module does not pass go vet:\n%s", stderr)
	}
	once := snapshotGo(t, dir)
	if _, stderr, code := run(t, dir, resilint, "-fix", "./..."); code != 0 {
		t.Errorf("second -fix: exit %d: %s", code, stderr)
	}
	for path, data := range snapshotGo(t, dir) {
		if once[path] != data {
			t.Errorf("a second -fix changed %s", path)
		}
	}
}

// prepareFixFiles turns the fixfiles fixture's files into what their
// names say (see testdata/fixfiles/README.md).
func prepareFixFiles(t *testing.T, dir string, links bool) {
	t.Helper()
	crlf := filepath.Join(dir, "crlf", "crlf.go")
	data, _ := os.ReadFile(crlf)
	writeFile(t, crlf, strings.ReplaceAll(string(data), "\n", "\r\n"))
	if !links {
		return
	}
	if err := os.Chmod(filepath.Join(dir, "modes", "modes.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "elsewhere"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "link", "link.go"), filepath.Join(dir, "elsewhere", "link.go.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "elsewhere", "link.go.txt"), filepath.Join(dir, "link", "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "hard", "hard.go"), filepath.Join(dir, "hard.go.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "ro", "ro.go"), 0o444); err != nil {
		t.Fatal(err)
	}
}

// TestFixFiles: -fix changes only what the fixes touch, keeps CRLF line
// endings, build constraints, comments and unformatted code elsewhere,
// places imports in goimports' groups, keeps file modes, writes symbolic
// links through to their target, keeps hard links, and does not write a
// read-only file (issue 14.6).
func TestFixFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic and hard links")
	}
	t.Parallel()
	dir := copyModule(t, "fixfiles")
	prepareFixFiles(t, dir, true)
	read := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	before := map[string]string{}
	for _, rel := range []string{"crlf/crlf.go", "modes/modes.go", "elsewhere/link.go.txt", "hard/hard.go", "ro/ro.go", "imports/imports.go"} {
		before[rel] = read(rel)
	}
	_, stderr, code := run(t, dir, resilint, "-fix", "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1 (the read-only file)", code)
	}
	if !strings.Contains(stderr, "ro/ro.go:10: detachedctx: Use ctx instead of context.Background(): not applied: ro/ro.go is read-only") {
		t.Errorf("the read-only file is not reported:\n%s", stderr)
	}
	fixed := func(src string) string {
		return strings.Replace(src, "context.WithTimeout(context.Background(), time.Second)", "context.WithTimeout(ctx, time.Second)", 1)
	}
	if got, want := read("crlf/crlf.go"), fixed(before["crlf/crlf.go"]); got != want {
		t.Errorf("crlf.go: got %q\nwant %q", got, want)
	}
	if got, want := read("modes/modes.go"), fixed(before["modes/modes.go"]); got != want {
		t.Errorf("modes.go: got %q, want %q", got, want)
	}
	if info, _ := os.Stat(filepath.Join(dir, "modes", "modes.go")); info.Mode().Perm() != 0o600 {
		t.Errorf("modes.go: mode %v, want 0600", info.Mode().Perm())
	}
	if info, err := os.Lstat(filepath.Join(dir, "link", "link.go")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.go is no longer a symbolic link: %v %v", info.Mode(), err)
	}
	if got, want := read("elsewhere/link.go.txt"), fixed(before["elsewhere/link.go.txt"]); got != want {
		t.Errorf("the symbolic link's target: got %q, want %q", got, want)
	}
	if got, want := read("hard/hard.go"), fixed(before["hard/hard.go"]); got != want {
		t.Errorf("hard.go: got %q, want %q", got, want)
	}
	a, _ := os.Stat(filepath.Join(dir, "hard", "hard.go"))
	b, _ := os.Stat(filepath.Join(dir, "hard.go.txt"))
	if !os.SameFile(a, b) {
		t.Error("hard.go's hard link was broken")
	}
	if got := read("ro/ro.go"); got != before["ro/ro.go"] {
		t.Errorf("the read-only file was written:\n%s", got)
	}
	// -fix -json says which fix was not applied, and why.
	stdout, _, code := run(t, dir, resilint, "-fix", "-json", "./ro/...")
	if code != 1 || !strings.Contains(stdout, `"fix_not_applied": "not applied: ro/ro.go is read-only"`) {
		t.Errorf("-fix -json on the read-only file: exit %d, want 1 and fix_not_applied:\n%s", code, stdout)
	}
	wantImports := "import (\n\t\"context\"\n\t\"database/sql\"\n\t\"time\"\n\n\t\"example.com/fixfiles/util\"\n)\n"
	if got := read("imports/imports.go"); !strings.Contains(got, wantImports) {
		t.Errorf("imports.go: the import is not in the standard library's group:\n%s", got)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "hard"))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".resilint-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestFixVisible: -fix prints every fix it applied and every finding it
// left, and exits 0 (all fixed), 3 (findings left) or 1 (a fix not
// applied); -fix -json says which fixes were applied (issue 14.7).
func TestFixVisible(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "cli")
	_, stderr, code := run(t, dir, resilint, "-fix", "./app")
	if code != 3 {
		t.Errorf("-fix with a finding left: exit %d, want 3", code)
	}
	for _, want := range []string{
		"app/app.go:16: detachedctx: Use ctx instead of context.Background()\n",
		"app/app.go:11:12: (*sql.DB).Exec has no deadline",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-fix output lacks %q:\n%s", want, stderr)
		}
	}
	ff := copyModule(t, "fixfiles")
	if _, stderr, code := run(t, ff, resilint, "-fix", "./modes"); code != 0 || !strings.Contains(stderr, "modes/modes.go:10: detachedctx: Use ctx instead of context.Background()") {
		t.Errorf("-fix, everything fixed: exit %d, want 0: %s", code, stderr)
	}

	dir = copyModule(t, "cli")
	stdout, stderr, code := run(t, dir, resilint, "-fix", "-json", "./app")
	if code != 3 {
		t.Errorf("-fix -json: exit %d, want 3: %s", code, stderr)
	}
	var tree map[string]map[string][]map[string]any
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("-fix -json: %v\n%s", err, stdout)
	}
	byAnalyzer := tree["example.com/cli/app"]
	if d := byAnalyzer["detachedctx"]; len(d) != 1 || d[0]["applied_fix"] != "Use ctx instead of context.Background()" {
		t.Errorf("-fix -json: the applied fix is not reported: %v", d)
	}
	if d := byAnalyzer["ctxdeadline"]; len(d) != 1 || d[0]["applied_fix"] != nil {
		t.Errorf("-fix -json: the finding without a fix: %v", d)
	}

	_, usage, _ := run(t, ".", resilint, "-help")
	for _, want := range []string{"Exit codes", "0  no findings", "3  findings", "1  "} {
		if !strings.Contains(usage, want) {
			t.Errorf("-help does not document the exit codes (%q):\n%s", want, usage)
		}
	}
}

// TestDiffApplies: the -fix -diff output applies with git apply and with
// patch -p1, and gives what -fix writes (issue 14.7).
func TestDiffApplies(t *testing.T) {
	t.Parallel()
	fixed := copyModule(t, "fixfiles")
	prepareFixFiles(t, fixed, false)
	if _, stderr, code := run(t, fixed, resilint, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d: %s", code, stderr)
	}
	want := snapshotGo(t, fixed)

	src := copyModule(t, "fixfiles")
	prepareFixFiles(t, src, false)
	diff, stderr, code := run(t, src, resilint, "-fix", "-diff", "./...")
	if code != 0 || diff == "" {
		t.Fatalf("-fix -diff: exit %d: %s", code, stderr)
	}
	orig := snapshotGo(t, src)
	patchFile := filepath.Join(t.TempDir(), "fix.diff")
	writeFile(t, patchFile, diff)
	for _, tool := range [][]string{{"git", "apply", patchFile}, {"patch", "-p1", "-i", patchFile}} {
		dir := copyModule(t, "fixfiles")
		prepareFixFiles(t, dir, false)
		if tool[0] == "git" {
			git(t, dir, "init", "-q")
		}
		if _, stderr, code := run(t, dir, tool[0], tool[1:]...); code != 0 {
			t.Errorf("%s: exit %d: %s\n%s", strings.Join(tool, " "), code, stderr, diff)
			continue
		}
		got := snapshotGo(t, dir)
		for path, data := range want {
			if got[path] != data {
				t.Errorf("%s: %s differs from what -fix writes:\n got %q\nwant %q", tool[0], path, got[path], data)
			}
		}
	}
	if !bytes.Equal([]byte(snapshotGo(t, src)["crlf/crlf.go"]), []byte(orig["crlf/crlf.go"])) {
		t.Error("-diff wrote a file")
	}
}
