package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The real-code regression suite: resilint run, as a user runs it, over every
// package of the public modules that testdata/realcode/go.mod requires
// directly (downloaded from the module proxy), its findings compared with the
// reviewed golden file testdata/realcode/findings.txt. It needs the network
// and a few minutes, so it runs only with RESILINT_REALCODE=1
// (scripts/e2e/realcode.sh, which ./scripts/test.sh runs);
// REALCODE_UPDATE=1 (scripts/e2e/realcode.sh -update) rewrites the golden
// file, keeping the verdicts of the findings that did not change and marking
// new ones unreviewed. The test fails while any finding is unreviewed.
// REALCODE_FLAGS adds flags to the resilint command line. The suite runs the
// in-process engine with -test=false: the modules' test dependencies are not
// in the test module's go.sum, and go vet (the default engine) always builds
// a package together with its test files, so it could not analyse those
// packages at all; both engines' findings are the same (TestEnginesAgree).

const rcDir = "realcode"

// verdicts a reviewer gives a finding. unreviewed is what -update gives a new
// one.
var rcVerdicts = map[string]bool{"true": true, "borderline": true, "false": true, "unreviewed": true}

// rcFinding is one finding: its identity (analyzer, module@version-relative
// position, message) and, in the golden file, its review.
type rcFinding struct {
	Analyzer, Pos, Message string
	Verdict, Reason        string
}

func (f rcFinding) key() string   { return f.Analyzer + "\t" + f.Pos + "\t" + f.Message }
func (f rcFinding) place() string { return f.Analyzer + "\t" + f.Pos }

// rcParse reads the golden file: comment lines (#) and blank lines, and
// for every finding two lines,
//
//	ANALYZER<TAB>MODULE@VERSION/FILE:LINE:COL<TAB>MESSAGE
//	<TAB>VERDICT: REASON
func rcParse(r io.Reader) ([]rcFinding, error) {
	var out []rcFinding
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	var cur *rcFinding
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
			if cur != nil {
				return nil, fmt.Errorf("line %d: the finding above has no verdict line", n)
			}
		case strings.HasPrefix(line, "\t"):
			if cur == nil {
				return nil, fmt.Errorf("line %d: a verdict line without a finding", n)
			}
			verdict, reason, _ := strings.Cut(strings.TrimPrefix(line, "\t"), ":")
			verdict, reason = strings.TrimSpace(verdict), strings.TrimSpace(reason)
			if !rcVerdicts[verdict] {
				return nil, fmt.Errorf("line %d: verdict %q, want true, borderline, false or unreviewed", n, verdict)
			}
			if reason == "" && verdict != "unreviewed" {
				return nil, fmt.Errorf("line %d: verdict %s without a reason", n, verdict)
			}
			cur.Verdict, cur.Reason = verdict, reason
			out = append(out, *cur)
			cur = nil
		default:
			if cur != nil {
				return nil, fmt.Errorf("line %d: the finding above has no verdict line", n)
			}
			parts := strings.SplitN(line, "\t", 3)
			if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
				return nil, fmt.Errorf("line %d: want ANALYZER<TAB>POSITION<TAB>MESSAGE, got %q", n, line)
			}
			f := rcFinding{Analyzer: parts[0], Pos: parts[1], Message: parts[2]}
			if seen[f.key()] {
				return nil, fmt.Errorf("line %d: duplicate finding", n)
			}
			seen[f.key()] = true
			cur = &f
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur != nil {
		return nil, fmt.Errorf("line %d: the last finding has no verdict line", n)
	}
	return out, nil
}

const rcHeader = `# Findings of resilint on the modules of testdata/realcode/go.mod (the
# real-code regression suite, cmd/resilint/realcode_test.go). Every finding
# is two lines: ANALYZER<TAB>MODULE@VERSION/FILE:LINE:COL<TAB>MESSAGE, then
# <TAB>VERDICT: REASON, where VERDICT is what a senior reviewer of that project
# would say: true (they would change the code, and the message is accurate),
# borderline, or false. scripts/e2e/realcode.sh -update rewrites this file,
# keeping the verdicts of unchanged findings and marking new ones unreviewed;
# the suite fails until they are judged.
`

// rcFormat writes findings in the golden file's format, sorted.
func rcFormat(fs []rcFinding) []byte {
	fs = append([]rcFinding(nil), fs...)
	rcSort(fs)
	var b bytes.Buffer
	b.WriteString(rcHeader)
	for _, f := range fs {
		b.WriteString("\n")
		fmt.Fprintf(&b, "%s\t%s\t%s\n", f.Analyzer, f.Pos, f.Message)
		if f.Reason == "" {
			fmt.Fprintf(&b, "\t%s\n", f.Verdict)
		} else {
			fmt.Fprintf(&b, "\t%s: %s\n", f.Verdict, f.Reason)
		}
	}
	return b.Bytes()
}

// rcPosKey orders positions by file, then line and column as numbers.
func rcPosKey(pos string) (string, int, int) {
	rest, col, ok := rcCutLastColon(pos)
	if !ok {
		return pos, 0, 0
	}
	file, line, ok := rcCutLastColon(rest)
	if !ok {
		return rest, 0, col
	}
	return file, line, col
}

func rcCutLastColon(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

func rcSort(fs []rcFinding) {
	sort.Slice(fs, func(i, j int) bool {
		fi, li, ci := rcPosKey(fs[i].Pos)
		fj, lj, cj := rcPosKey(fs[j].Pos)
		if fi != fj {
			return fi < fj
		}
		if li != lj {
			return li < lj
		}
		if ci != cj {
			return ci < cj
		}
		if fs[i].Analyzer != fs[j].Analyzer {
			return fs[i].Analyzer < fs[j].Analyzer
		}
		return fs[i].Message < fs[j].Message
	})
}

// rcMerge compares the findings of a run with the golden ones. It
// returns the golden file's new contents (the run's findings, with the
// verdicts of those that did not change and unreviewed for new ones; a new
// finding at the place of a lost one says what the lost one's verdict was),
// and a readable diff, empty when nothing changed.
func rcMerge(golden, got []rcFinding) ([]rcFinding, string) {
	old := map[string]rcFinding{}
	oldAt := map[string][]rcFinding{}
	for _, f := range golden {
		old[f.key()] = f
		oldAt[f.place()] = append(oldAt[f.place()], f)
	}
	now := map[string]bool{}
	var merged, added []rcFinding
	for _, f := range got {
		now[f.key()] = true
		if o, ok := old[f.key()]; ok {
			f.Verdict, f.Reason = o.Verdict, o.Reason
		} else {
			f.Verdict, f.Reason = "unreviewed", ""
			for _, o := range oldAt[f.place()] {
				f.Reason = fmt.Sprintf("(the message changed; it was %s: %s)", o.Verdict, o.Reason)
			}
			added = append(added, f)
		}
		merged = append(merged, f)
	}
	var lost []rcFinding
	for _, f := range golden {
		if !now[f.key()] {
			lost = append(lost, f)
		}
	}
	rcSort(added)
	rcSort(lost)
	var b strings.Builder
	if len(lost) > 0 {
		n := map[string]int{}
		for _, f := range lost {
			n[f.Verdict]++
		}
		fmt.Fprintf(&b, "%d findings lost (%d true, %d borderline, %d false, %d unreviewed):\n",
			len(lost), n["true"], n["borderline"], n["false"], n["unreviewed"])
		for _, f := range lost {
			fmt.Fprintf(&b, "- %s %s: %s\n      was %s: %s\n", f.Analyzer, f.Pos, f.Message, f.Verdict, f.Reason)
		}
	}
	if len(added) > 0 {
		fmt.Fprintf(&b, "%d new findings:\n", len(added))
		for _, f := range added {
			fmt.Fprintf(&b, "+ %s %s: %s\n", f.Analyzer, f.Pos, f.Message)
			if f.Reason != "" {
				fmt.Fprintf(&b, "      %s\n", f.Reason)
			}
		}
	}
	return merged, b.String()
}

// precision summarises the verdicts: overall and per analyzer, true / all.
func rcPrecision(fs []rcFinding) string {
	per := map[string]map[string]int{}
	total := map[string]int{}
	for _, f := range fs {
		if per[f.Analyzer] == nil {
			per[f.Analyzer] = map[string]int{}
		}
		per[f.Analyzer][f.Verdict]++
		total[f.Verdict]++
	}
	line := func(name string, c map[string]int) string {
		all := c["true"] + c["borderline"] + c["false"] + c["unreviewed"]
		p := 0.0
		if all > 0 {
			p = 100 * float64(c["true"]) / float64(all)
		}
		s := fmt.Sprintf("%-16s %3d findings: %3d true, %3d borderline, %3d false", name, all, c["true"], c["borderline"], c["false"])
		if c["unreviewed"] > 0 {
			s += fmt.Sprintf(", %d unreviewed", c["unreviewed"])
		}
		return s + fmt.Sprintf("; precision %.1f %%\n", p)
	}
	var names []string
	for name := range per {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(line("all", total))
	for _, name := range names {
		b.WriteString(line(name, per[name]))
	}
	return b.String()
}

// rcUnescapeModPath undoes the module cache's case encoding ("!i!b!m" is
// "IBM").
func rcUnescapeModPath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '!' && i+1 < len(s) {
			i++
			b.WriteString(strings.ToUpper(s[i : i+1]))
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// rcModulePos turns a position in the module cache into MODULE@VERSION/FILE:...
func rcModulePos(modcache, posn string) (string, bool) {
	rel, err := filepath.Rel(modcache, posn)
	if err != nil || strings.HasPrefix(rel, "..") {
		return posn, false
	}
	return rcUnescapeModPath(filepath.ToSlash(rel)), true
}

// rcDecode reads resilint -json output: one JSON object per package
// tree (the standalone driver prints one, go vet one per package), each
// {package: {analyzer: [diagnostic] or {"error": ...}}}.
func rcDecode(out []byte, modcache string) ([]rcFinding, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := map[string]bool{}
	var fs []rcFinding
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("decoding resilint -json output: %v", err)
		}
		for pkg, byAnalyzer := range tree {
			for name, raw := range byAnalyzer {
				var diags []jsonDiag
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, fmt.Errorf("%s: %s: %s", pkg, name, raw)
				}
				for _, d := range diags {
					pos, ok := rcModulePos(modcache, d.Posn)
					if !ok {
						return nil, fmt.Errorf("%s: a finding outside the module cache: %s", name, d.Posn)
					}
					f := rcFinding{Analyzer: name, Pos: pos, Message: d.Message}
					if !seen[f.key()] {
						seen[f.key()] = true
						fs = append(fs, f)
					}
				}
			}
		}
	}
	rcSort(fs)
	return fs, nil
}

func TestRealCodeGoldenFormat(t *testing.T) {
	// The golden file in the repository parses, and carries a verdict and a
	// reason for every finding.
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", rcDir, "findings.txt"))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := rcParse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("findings.txt: %v", err)
	}
	for _, f := range fs {
		if f.Verdict == "unreviewed" {
			t.Errorf("findings.txt: %s %s is unreviewed", f.Analyzer, f.Pos)
		}
	}
	if got := rcFormat(fs); !bytes.Equal(got, data) {
		t.Errorf("findings.txt is not in the format -update writes (sorted, header, blank line between findings)")
	}
}

func TestRealCodeMerge(t *testing.T) {
	golden := []rcFinding{
		{"sleepretry", "example.com/m@v1.0.0/a.go:10:2", "fixed wait", "true", "a storm"},
		{"ctxdeadline", "example.com/m@v1.0.0/a.go:9:2", "no deadline", "false", "bounded by the transport"},
		{"unboundedfanout", "example.com/m@v1.0.0/b.go:3:1", "one goroutine per x", "borderline", "small list"},
	}
	got := []rcFinding{
		{Analyzer: "sleepretry", Pos: "example.com/m@v1.0.0/a.go:10:2", Message: "fixed wait"},
		{Analyzer: "unboundedfanout", Pos: "example.com/m@v1.0.0/b.go:3:1", Message: "one goroutine per element of x"},
		{Analyzer: "detachedctx", Pos: "example.com/m@v1.0.0/a.go:100:1", Message: "Background"},
	}
	merged, diff := rcMerge(golden, got)
	for _, want := range []string{
		"2 findings lost (0 true, 1 borderline, 1 false, 0 unreviewed):\n",
		"- ctxdeadline example.com/m@v1.0.0/a.go:9:2: no deadline\n      was false: bounded by the transport",
		"- unboundedfanout example.com/m@v1.0.0/b.go:3:1: one goroutine per x\n      was borderline: small list",
		"+ detachedctx example.com/m@v1.0.0/a.go:100:1: Background",
		"+ unboundedfanout example.com/m@v1.0.0/b.go:3:1: one goroutine per element of x\n      (the message changed; it was borderline: small list)",
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, "fixed wait") {
		t.Errorf("diff names an unchanged finding:\n%s", diff)
	}
	text := rcFormat(merged)
	back, err := rcParse(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("parsing the rewritten file: %v\n%s", err, text)
	}
	byKey := map[string]rcFinding{}
	for _, f := range back {
		byKey[f.key()] = f
	}
	if len(back) != 3 {
		t.Fatalf("rewritten file has %d findings, want 3:\n%s", len(back), text)
	}
	if f := byKey[got[0].key()]; f.Verdict != "true" || f.Reason != "a storm" {
		t.Errorf("unchanged finding lost its verdict: %+v", f)
	}
	if f := byKey[got[1].key()]; f.Verdict != "unreviewed" || !strings.Contains(f.Reason, "was borderline: small list") {
		t.Errorf("changed finding: %+v, want unreviewed with the old verdict in its reason", f)
	}
	if f := byKey[got[2].key()]; f.Verdict != "unreviewed" || f.Reason != "" {
		t.Errorf("new finding: %+v, want unreviewed", f)
	}
	if _, diff := rcMerge(back, got); diff != "" {
		t.Errorf("the rewritten file still differs from the run:\n%s", diff)
	}
	p := rcPrecision(golden)
	if !strings.Contains(p, "all                3 findings:   1 true,   1 borderline,   1 false; precision 33.3 %") {
		t.Errorf("precision:\n%s", p)
	}
	for _, bad := range []string{
		"a\tb\tc\n",               // no verdict
		"a\tb\tc\n\tmaybe: why\n", // bad verdict
		"a\tb\tc\n\ttrue\n",       // no reason
		"\ttrue: x\n",             // verdict without finding
		"a b c\n\ttrue: x\n",      // not tab-separated
		"a\tb\tc\n\ttrue: x\na\tb\tc\n\tfalse: y\n", // duplicate
	} {
		if _, err := rcParse(strings.NewReader(bad)); err == nil {
			t.Errorf("rcParse accepted %q", bad)
		}
	}
}

func TestRealCodeDecode(t *testing.T) {
	modcache := filepath.FromSlash("/cache/mod")
	out := `{"example.com/a": {"sleepretry": [{"posn": "/cache/mod/github.com/!i!b!m/sarama@v1.61.1/admin.go:306:3", "message": "m1"}]}}
{"example.com/b": {"sleepretry": [{"posn": "/cache/mod/github.com/!i!b!m/sarama@v1.61.1/admin.go:306:3", "message": "m1"}], "ctxdeadline": []}}
`
	fs, err := rcDecode([]byte(out), modcache)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Pos != "github.com/IBM/sarama@v1.61.1/admin.go:306:3" {
		t.Errorf("decoded %+v", fs)
	}
	if _, err := rcDecode([]byte(`{"p": {"ctxdeadline": {"error": "boom"}}}`), modcache); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("an analyzer error was not reported: %v", err)
	}
	if _, err := rcDecode([]byte(`{"p": {"ctxdeadline": [{"posn": "/elsewhere/x.go:1:1", "message": "m"}]}}`), modcache); err == nil {
		t.Errorf("a finding outside the module cache was accepted")
	}
}

// rcPackages lists the packages of the modules that the test module
// requires directly: go list over MODULE/... for each, keeping the packages
// that belong to that module (not to a nested module).
func rcPackages(t *testing.T, dir string) (mods []string, pkgs []string) {
	t.Helper()
	stdout, stderr, code := run(t, dir, "go", "mod", "edit", "-json")
	if code != 0 {
		t.Fatalf("go mod edit -json: %s", stderr)
	}
	var gomod struct {
		Require []struct {
			Path, Version string
			Indirect      bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &gomod); err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, r := range gomod.Require {
		if !r.Indirect {
			mods = append(mods, r.Path+"@"+r.Version)
			patterns = append(patterns, r.Path+"/...")
		}
	}
	stdout, stderr, code = run(t, dir, "go", append([]string{"list", "-e", "-json=ImportPath,Module,Error"}, patterns...)...)
	if code != 0 {
		t.Fatalf("go list: %s", stderr)
	}
	count := map[string]int{}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var p struct {
			ImportPath string
			Module     *struct{ Path string }
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.ImportPath, "...") {
			// A pattern's own error: a nested module under the prefix
			// that the build list does not hold. Its module's packages
			// are listed all the same.
			t.Logf("go list: %s", p.Error.Err)
			continue
		}
		if p.Error != nil {
			t.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
			continue
		}
		if p.Module == nil || !strings.HasPrefix(p.ImportPath+"/", p.Module.Path+"/") {
			continue
		}
		for _, pat := range patterns {
			if strings.TrimSuffix(pat, "/...") == p.Module.Path {
				pkgs = append(pkgs, p.ImportPath)
				count[p.Module.Path]++
			}
		}
	}
	for _, pat := range patterns {
		if m := strings.TrimSuffix(pat, "/..."); count[m] == 0 {
			t.Errorf("module %s has no packages", m)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return mods, pkgs
}

func TestRealCode(t *testing.T) {
	if os.Getenv("RESILINT_REALCODE") != "1" {
		t.Skip("the real-code suite runs with RESILINT_REALCODE=1 (scripts/e2e/realcode.sh)")
	}
	dir := filepath.Join(repoRoot(t), "testdata", rcDir)
	goldenPath := filepath.Join(dir, "findings.txt")
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := rcParse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", goldenPath, err)
	}

	start := time.Now()
	mods, pkgs := rcPackages(t, dir)
	t.Logf("%d modules, %d packages (listed in %s, modules downloaded)", len(mods), len(pkgs), time.Since(start).Round(time.Second))

	stdout, _, _ := run(t, dir, "go", "env", "GOMODCACHE")
	modcache := strings.TrimSpace(stdout)
	start = time.Now()
	args := append([]string{"-engine=inprocess", "-test=false", "-json"}, strings.Fields(os.Getenv("REALCODE_FLAGS"))...)
	out, stderr, code := run(t, dir, resilint, append(args, pkgs...)...)
	t.Logf("resilint over them: %s", time.Since(start).Round(time.Second))
	if code != 0 && code != 3 {
		t.Fatalf("resilint exited %d:\n%s", code, stderr)
	}
	got, err := rcDecode([]byte(out), modcache)
	if err != nil {
		t.Fatal(err)
	}
	merged, diff := rcMerge(golden, got)
	t.Logf("precision of the golden file (true / all; borderline counts as not true):\n%s", rcPrecision(golden))
	switch {
	case diff == "":
	case os.Getenv("REALCODE_UPDATE") == "1":
		if err := os.WriteFile(goldenPath, rcFormat(merged), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("findings changed:\n%s\nrewrote %s; findings now:\n%s", diff, goldenPath, rcPrecision(merged))
	default:
		t.Errorf("resilint's findings on %s differ from the golden file:\n%s\n"+
			"judge them: scripts/e2e/realcode.sh -update rewrites findings.txt (new findings unreviewed); give each a verdict and a reason",
			strings.Join(mods, " "), diff)
	}
	for _, f := range merged {
		if f.Verdict == "unreviewed" {
			t.Errorf("unreviewed in findings.txt: %s %s: %s", f.Analyzer, f.Pos, f.Message)
		}
	}
}
