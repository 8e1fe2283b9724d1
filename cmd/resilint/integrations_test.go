package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These tests run the resilint binary on testdata/ecomod, a module with
//
//	client/client.go:12  db.Exec                       ctxdeadline
//	client/client.go:19  wrap.Call                     ctxdeadline, only when configured as outbound
//	client/client.go:26  db.Query in a //nolint:resilint declaration
//	client/client.go:34  db.Exec with //nolint:ctxdeadline on the line
//	client/client.go:39  an unused //nolint:ctxdeadline
//	api/api.go:12        WithTimeout(ctx, 20s)         detachedctx, only with a request budget below 20s
//	api/api.go:19        WithTimeout(Background(), 2s) detachedctx
//
// It imports database/sql rather than net/http: loading net/http from
// source for every run would make these tests several times slower.

// lines runs resilint -json and returns its findings as "file:line analyzer"
// with the file relative to dir, sorted.
func lines(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	var out []string
	for _, f := range findings(t, dir, args...) {
		out = append(out, posLine(t, dir, f.Posn)+" "+f.analyzer)
	}
	slices.Sort(out)
	return out
}

// posLine turns "/abs/file.go:12:3" into "file.go:12" relative to dir.
func posLine(t *testing.T, dir, posn string) string {
	t.Helper()
	m := regexp.MustCompile(`^(.*):(\d+):(\d+)$`).FindStringSubmatch(posn)
	if m == nil {
		t.Fatalf("bad posn %q", posn)
	}
	file := m[1]
	if r, err := filepath.Rel(realPath(t, dir), realPath(t, file)); err == nil {
		file = filepath.ToSlash(r)
	}
	return file + ":" + m[2]
}

func realPath(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	return r
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var defaultFindings = []string{
	"api/api.go:19 detachedctx",
	"client/client.go:12 ctxdeadline",
}

// lineOf returns the 1-based line of the n-th (0-based) line of src that
// contains substr.
func lineOf(t *testing.T, src, substr string, n int) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, substr) {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	t.Fatalf("no %q in:\n%s", substr, src)
	return 0
}

func TestNolintDirectives(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	// Line 26 (declaration directive) and line 34 (line directive) are not
	// reported; neither is the db.Exec in the test file.
	if got := lines(t, dir, "./..."); !slices.Equal(got, defaultFindings) {
		t.Errorf("findings:\n got %q\nwant %q", got, defaultFindings)
	}
	// Without the directives, both are findings: the directives did the work.
	for _, name := range []string{"client/client.go"} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		writeFile(t, filepath.Join(dir, name), strings.ReplaceAll(string(data), "//nolint:", "// was nolint "))
	}
	want := append(slices.Clone(defaultFindings), "client/client.go:26 ctxdeadline", "client/client.go:34 ctxdeadline")
	slices.Sort(want)
	if got := lines(t, dir, "./..."); !slices.Equal(got, want) {
		t.Errorf("findings without directives:\n got %q\nwant %q", got, want)
	}
}

func TestReportUnusedNolint(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	_, stderr, code := run(t, dir, resilint, "-report-unused-nolint", "./...")
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	unused := regexp.MustCompile(`(?m)^(.*):(\d+): unused //nolint directive for (\S+): .*$`)
	ms := unused.FindAllStringSubmatch(stderr, -1)
	if len(ms) != 1 || !strings.HasSuffix(ms[0][1], filepath.Join("client", "client.go")) || ms[0][2] != "39" || ms[0][3] != "ctxdeadline" {
		t.Fatalf("want exactly the directive at client/client.go:39 reported, got %q in:\n%s", ms, stderr)
	}
	// Only the unused directive is left: still exit 3, as for a finding.
	_, stderr, code = run(t, dir, resilint, "-report-unused-nolint", "./client")
	if code != 3 || !strings.Contains(stderr, "unused //nolint directive") {
		t.Fatalf("./client: exit %d, want 3 with the unused directive: %s", code, stderr)
	}
	// Without the flag, nothing about directives is printed.
	_, stderr, _ = run(t, dir, resilint, "./...")
	if strings.Contains(stderr, "unused") {
		t.Errorf("unused directives reported without the flag:\n%s", stderr)
	}
	// A directive for an analyzer that does not run is not unused.
	_, stderr, code = run(t, dir, resilint, "-report-unused-nolint", "-ctxdeadline=false", "./client")
	if code != 0 || strings.Contains(stderr, "unused") {
		t.Errorf("with ctxdeadline off: exit %d, want 0 and no unused directive: %s", code, stderr)
	}
}

func TestConfigFile(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	// A team declares its wrapper as outbound and raises the budget.
	writeFile(t, filepath.Join(dir, ".resilint.yml"), `# resilint configuration
request-budget: 15s
outbound:
  - package: example.com/ecomod/wrap
    func: Call
    ctx: -1
`)
	want := []string{
		"api/api.go:12 detachedctx",
		"api/api.go:19 detachedctx",
		"client/client.go:12 ctxdeadline",
		"client/client.go:19 ctxdeadline",
	}
	if got := lines(t, dir, "./..."); !slices.Equal(got, want) {
		t.Errorf("with .resilint.yml:\n got %q\nwant %q", got, want)
	}
	// Found from a subdirectory too: the file is at the module root.
	if got := lines(t, filepath.Join(dir, "client"), "./..."); !slices.Equal(got, []string{"client.go:12 ctxdeadline", "client.go:19 ctxdeadline"}) {
		t.Errorf("from client/: got %q", got)
	}
	// Flags win over the file.
	want2 := []string{"api/api.go:19 detachedctx"}
	if got := lines(t, dir, "-request-budget=30s", "./api"); !slices.Equal(got, want2) {
		t.Errorf("-request-budget=30s over the file's 15s: got %q, want %q", got, want2)
	}
	// An explicit -config replaces the discovered file.
	writeFile(t, filepath.Join(dir, "ci", "only-detached.yml"), "enable: [detachedctx]\n")
	if got := lines(t, dir, "-config", "ci/only-detached.yml", "./..."); !slices.Equal(got, want2) {
		t.Errorf("-config ci/only-detached.yml: got %q, want %q", got, want2)
	}
	// go vet -vettool reads the module's file too.
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+resilint, "./client")
	if code == 0 || !strings.Contains(stderr, "client.go:19:") {
		t.Errorf("go vet -vettool does not apply .resilint.yml (exit %d):\n%s", code, stderr)
	}
}

func TestBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		args       []string
		want       []string // substrings of stderr
	}{
		{"unknown key", "request-budget: 5s\nfanout-limt: 3\n", nil, []string{".resilint.yml:2:", `unknown key "fanout-limt"`, "fanout-limit"}},
		{"unknown rule key", "outbound:\n  - package: example.com/x\n    fnc: Call\n", nil, []string{".resilint.yml:3:", `unknown key "fnc" in outbound[0]`, "func"}},
		{"bad duration", "request-budget: soon\n", nil, []string{".resilint.yml:1: request-budget:", `invalid duration "soon"`}},
		{"bad type", "enable: 3\n", nil, []string{".resilint.yml:1:", "cannot unmarshal"}},
		{"bad yaml", "enable: [ctxdeadline\n", nil, []string{".resilint.yml:"}},
		{"not a mapping", "- ctxdeadline\n", nil, []string{".resilint.yml:1:", "must be a mapping"}},
		{"unknown analyzer", "disable: [ctxdeadlin]\n", nil, []string{"unknown analyzer ctxdeadlin"}},
		{"bad rule", "outbound:\n  - package: example.com/x\n", nil, []string{".resilint.yml", "outbound rule needs package and func"}},
		{"bad limit", "fanout-limit: 0\n", nil, []string{".resilint.yml", "fanout-limit must be at least 1"}},
		{"two documents", "tests: true\n---\ntests: false\n", nil, []string{".resilint.yml", "more than one YAML document"}},
		{"missing -config", "", []string{"-config", "nope.yml"}, []string{"nope.yml", "no such file"}},
		{"-config is a directory", "", []string{"-config", "client"}, []string{"client is a directory"}},
		{"bad flag", "", []string{"-request-budget=-1s"}, []string{"request-budget"}},
		{"unknown flag", "", []string{"-bogus"}, []string{"-bogus"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyModule(t, "ecomod")
			if tc.file != "" {
				writeFile(t, filepath.Join(dir, ".resilint.yml"), tc.file)
			}
			_, stderr, code := run(t, dir, resilint, append(tc.args, "./...")...)
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stderr, "panic:") || strings.Contains(stderr, "goroutine 1 [") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
		})
	}
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Help struct {
						Text     string `json:"text"`
						Markdown string `json:"markdown"`
					} `json:"help"`
					HelpURI string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID  string `json:"ruleId"`
			Level   string `json:"level"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						EndLine     int `json:"endLine"`
						EndColumn   int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Fixes []struct {
				Description struct {
					Text string `json:"text"`
				} `json:"description"`
				ArtifactChanges []struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Replacements []struct {
						DeletedRegion struct {
							StartLine int `json:"startLine"`
						} `json:"deletedRegion"`
						InsertedContent struct {
							Text string `json:"text"`
						} `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

// analyzerNames returns the analyzers of the binary, from resilint help.
func analyzerNames(t *testing.T) []string {
	t.Helper()
	stdout, stderr, code := run(t, ".", resilint, "help")
	if code != 0 {
		t.Fatalf("resilint help: exit %d: %s", code, stderr)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^    (\S+)\s`).FindAllStringSubmatch(stdout, -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("no analyzer in resilint help:\n%s", stdout)
	}
	return names
}

func TestSARIF(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	stdout, stderr, code := run(t, dir, resilint, "-format", "sarif", "./...")
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("-format sarif printed on stderr:\n%s", stderr)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("SARIF output does not parse: %v\n%s", err, stdout)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "resilint" {
		t.Fatalf("bad SARIF header: version %q, %d runs", log.Version, len(log.Runs))
	}
	r := log.Runs[0]
	var ruleIDs []string
	for _, rule := range r.Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, rule.ID)
		if rule.ShortDescription.Text == "" || !strings.Contains(rule.Help.Text, rule.ShortDescription.Text) || rule.Help.Markdown == "" {
			t.Errorf("rule %s: no documentation as help", rule.ID)
		}
		if want := "https://github.com/resilint/resilint/blob/main/analyzers/" + rule.ID + "/doc.go"; rule.HelpURI != want {
			t.Errorf("rule %s: helpUri %q, want %q", rule.ID, rule.HelpURI, want)
		}
	}
	if names := analyzerNames(t); !slices.Equal(ruleIDs, names) {
		t.Errorf("SARIF rules %q, want the analyzers %q", ruleIDs, names)
	}
	var got []string
	fixes := 0
	for _, res := range r.Results {
		loc := res.Locations[0].PhysicalLocation
		got = append(got, loc.ArtifactLocation.URI+":"+strconv.Itoa(loc.Region.StartLine)+" "+res.RuleID)
		if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartColumn < 1 || loc.Region.EndLine < loc.Region.StartLine {
			t.Errorf("bad location %+v", loc)
		}
		for _, fx := range res.Fixes {
			fixes++
			if fx.Description.Text == "" || len(fx.ArtifactChanges) == 0 || len(fx.ArtifactChanges[0].Replacements) == 0 {
				t.Errorf("empty fix in %s", res.Message.Text)
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, defaultFindings) {
		t.Errorf("SARIF results:\n got %q\nwant %q", got, defaultFindings)
	}
	if fixes == 0 {
		t.Errorf("no SARIF fix, though both findings have one")
	}

	// SARIF to a file, GitHub annotations on stdout, text on stderr: one run.
	_, stderr, code = run(t, dir, resilint, "-format", "sarif:out/resilint.sarif,github,text", "./...")
	if code != 1 || !strings.Contains(stderr, "writing out/resilint.sarif") {
		t.Errorf("SARIF into a missing directory: exit %d, want 1 with an error naming the file:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Fatal("out/ was created")
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	stdout, stderr, code = run(t, dir, resilint, "-format", "sarif:out/resilint.sarif,github,text", "./...")
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "resilint.sarif"))
	if err != nil || json.Unmarshal(data, &log) != nil || len(log.Runs[0].Results) != len(defaultFindings) {
		t.Errorf("out/resilint.sarif: %v\n%s", err, data)
	}
	ann := regexp.MustCompile(`(?m)^::warning file=([^,]+),line=(\d+),col=\d+,endLine=\d+,endColumn=\d+,title=resilint (\w+)::(\w+): .+$`)
	var anns []string
	for _, m := range ann.FindAllStringSubmatch(stdout, -1) {
		anns = append(anns, m[1]+":"+m[2]+" "+m[3])
		if m[3] != m[4] {
			t.Errorf("annotation title %s, message prefix %s", m[3], m[4])
		}
	}
	slices.Sort(anns)
	if !slices.Equal(anns, defaultFindings) {
		t.Errorf("annotations:\n got %q\nwant %q\nstdout:\n%s", anns, defaultFindings, stdout)
	}
	if strings.Count(stderr, ": ") < len(defaultFindings) || !strings.Contains(stderr, "client.go:12:12: (*sql.DB).Exec has no deadline") {
		t.Errorf("text output missing on stderr:\n%s", stderr)
	}

	for _, bad := range [][]string{{"-format", "xml"}, {"-format", "sarif,json"}, {"-json", "-format", "github"}, {"-format", "sarif:"}} {
		_, stderr, code := run(t, dir, resilint, append(bad, "./...")...)
		if code != 1 || !strings.Contains(stderr, "-format") {
			t.Errorf("%q: exit %d, want 1 with a -format error: %s", bad, code, stderr)
		}
	}
}

func TestBaseline(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	_, stderr, code := run(t, dir, resilint, "-write-baseline", "resilint-baseline.json", "./...")
	if code != 0 || !strings.Contains(stderr, "recorded 2 findings in resilint-baseline.json") {
		t.Fatalf("-write-baseline: exit %d: %s", code, stderr)
	}
	if stdout, stderr, code := run(t, dir, resilint, "-baseline", "resilint-baseline.json", "./..."); code != 0 || stdout != "" || stderr != "" {
		t.Errorf("with the baseline: exit %d, want 0 and no output: %s%s", code, stdout, stderr)
	}

	// Shift every line of client.go, and add two new findings: one on a
	// line identical to a known one, one elsewhere.
	name := filepath.Join(dir, "client", "client.go")
	data, _ := os.ReadFile(name)
	src := strings.Replace(string(data), "// Count counts", "// A comment\n// that shifts\n// the lines.\n\n// Count counts", 1)
	src += "\n// Again has a line identical to Count's.\nfunc Again(db *sql.DB) error {\n\t_, err := db.Exec(\"UPDATE stats SET n = (SELECT count(*) FROM orders)\")\n\treturn err\n}\n"
	src += "\n// Also is new.\nfunc Also(db *sql.DB) {\n\tdb.Query(\"SELECT 2\")\n}\n"
	writeFile(t, name, src)
	got := lines(t, dir, "-baseline", "resilint-baseline.json", "./...")
	want := []string{
		"client/client.go:" + strconv.Itoa(lineOf(t, src, "UPDATE stats", 1)) + " ctxdeadline",
		"client/client.go:" + strconv.Itoa(lineOf(t, src, "SELECT 2", 0)) + " ctxdeadline",
	}
	if !slices.Equal(got, want) {
		t.Errorf("after shifting lines and adding two findings:\n got %q\nwant %q", got, want)
	}
	all := lines(t, dir, "./...")
	if len(all) != 4 {
		t.Errorf("without the baseline: %q, want 4 findings", all)
	}

	for _, tc := range []struct{ name, data, want string }{
		{"missing", "", "no such file"},
		{"garbage", "{not json", "not a resilint baseline file"},
		{"other tool", `{"version":1,"tool":"other","findings":[]}`, "not a resilint baseline file"},
		{"unknown field", `{"version":1,"tool":"resilint","findings":[],"extra":1}`, "not a resilint baseline file"},
		{"no fingerprint", `{"version":1,"tool":"resilint","findings":[{"analyzer":"x"}]}`, "has no fingerprint"},
	} {
		path := filepath.Join(t.TempDir(), "b.json")
		if tc.data != "" {
			writeFile(t, path, tc.data)
		}
		_, stderr, code := run(t, dir, resilint, "-baseline", path, "./...")
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s baseline: exit %d, want 1 with %q: %s", tc.name, code, tc.want, stderr)
		}
	}
	_, stderr, code = run(t, dir, resilint, "-write-baseline", filepath.Join(dir, "nodir", "b.json"), "./...")
	if code != 1 || !strings.Contains(stderr, "b.json") {
		t.Errorf("-write-baseline into a missing directory: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "nodir")); err == nil {
		t.Error("nodir was created")
	}
	_, stderr, code = run(t, dir, resilint, "-write-baseline", "b.json", "-baseline", "resilint-baseline.json", "./...")
	if code != 1 || !strings.Contains(stderr, "-write-baseline") {
		t.Errorf("-write-baseline with -baseline: exit %d: %s", code, stderr)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestNewFromRev(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "ecomod")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "legacy code")

	if got := lines(t, dir, "-new-from-rev", "HEAD", "./api"); len(got) != 0 {
		t.Errorf("nothing changed since HEAD, got %q", got)
	}
	// An uncommitted change: a new finding, and lines shifted above old ones.
	name := filepath.Join(dir, "api", "api.go")
	data, _ := os.ReadFile(name)
	src := strings.Replace(string(data), "// Report waits", "// Push is new.\nfunc Push(ctx context.Context) {\n\tctx, cancel := context.WithTimeout(context.TODO(), time.Second)\n\tdefer cancel()\n\t_ = ctx\n}\n\n// Report waits", 1)
	writeFile(t, name, src)
	want := []string{"api/api.go:" + strconv.Itoa(lineOf(t, src, "context.TODO()", 0)) + " detachedctx"}
	if got := lines(t, dir, "-new-from-rev", "HEAD", "./api"); !slices.Equal(got, want) {
		t.Errorf("uncommitted change: got %q, want %q", got, want)
	}
	// Committed, and compared with the commit before.
	git(t, dir, "commit", "-q", "-am", "push")
	if got := lines(t, dir, "-new-from-rev", "HEAD~1", "./api"); !slices.Equal(got, want) {
		t.Errorf("HEAD~1: got %q, want %q", got, want)
	}
	if got := lines(t, dir, "-new-from-rev", "HEAD", "./api"); len(got) != 0 {
		t.Errorf("HEAD after the commit: got %q, want none", got)
	}
	// An untracked file is new as a whole.
	writeFile(t, filepath.Join(dir, "api", "extra.go"), "package api\n\nimport \"context\"\n\nfunc Extra(ctx context.Context) {\n\t_, cancel := context.WithCancel(context.Background())\n\tcancel()\n\t_, cancel = context.WithTimeout(context.TODO(), 1)\n\tcancel()\n}\n")
	want = append(want, "api/extra.go:8 detachedctx")
	if got := lines(t, dir, "-new-from-rev", "HEAD~1", "./api"); !slices.Equal(got, want) {
		t.Errorf("untracked file: got %q, want %q", got, want)
	}
	// Run from a subdirectory: paths are relative to the repository root.
	if got := lines(t, filepath.Join(dir, "api"), "-new-from-rev", "HEAD", "./..."); !slices.Equal(got, []string{"extra.go:8 detachedctx"}) {
		t.Errorf("from api/: got %q", got)
	}
	// With the baseline too: both filters apply.
	run(t, dir, resilint, "-write-baseline", "b.json", "./api")
	if got := lines(t, dir, "-new-from-rev", "HEAD~1", "-baseline", "b.json", "./api"); len(got) != 0 {
		t.Errorf("-new-from-rev with a full baseline: got %q", got)
	}

	// A moved file is not new: only changed lines are.
	git(t, dir, "mv", "api/api.go", "api/handlers.go")
	git(t, dir, "commit", "-q", "-m", "move")
	if got := lines(t, dir, "-new-from-rev", "HEAD~1", "./api"); !slices.Equal(got, []string{"api/extra.go:8 detachedctx"}) {
		t.Errorf("after git mv: got %q, want only the untracked file's finding", got)
	}

	for _, rev := range []string{"nosuchrev", "HEAD~9", "--output=/tmp/x"} {
		_, stderr, code := run(t, dir, resilint, "-new-from-rev", rev, "./...")
		if code != 1 || !strings.Contains(stderr, "-new-from-rev") {
			t.Errorf("-new-from-rev %s: exit %d, want 1 with a clear error: %s", rev, code, stderr)
		}
	}
	plain := copyModule(t, "ecomod")
	_, stderr, code := run(t, plain, resilint, "-new-from-rev", "HEAD", "./api")
	if code != 1 || !strings.Contains(stderr, "git") {
		t.Errorf("outside git: exit %d, want 1: %s", code, stderr)
	}
}

// TestVetFacts runs the cross-package fact case through go vet -vettool:
// package b forwards its ctx to an HTTP call, package a passes it
// context.Background(). Only facts exported by b's unit let a's unit report.
func TestVetFacts(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, "vetfacts")
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+resilint, "./...")
	if code == 0 {
		t.Fatalf("go vet found nothing:\n%s", stderr)
	}
	re := regexp.MustCompile(`(?m)^a[/\\]a\.go:(\d+):\d+: b\.Lookup gets context\.Background\(\), which has no deadline, and forwards it to \(\*http\.Client\)\.Do \(through b\.fetch\)`)
	ms := re.FindAllStringSubmatch(stderr, -1)
	if len(ms) != 1 || ms[0][1] != "14" {
		t.Errorf("want one finding at a/a.go:14 naming the chain, got:\n%s", stderr)
	}
	if strings.Contains(stderr, "b/b.go") || strings.Count(stderr, ".go:") != 1 {
		t.Errorf("unexpected findings:\n%s", stderr)
	}
	// And with -json, go vet streams one object per package (pitfall X1).
	stdout, stderr, code := run(t, dir, "go", "vet", "-vettool="+resilint, "-json", "./...")
	if code != 0 || !strings.Contains(stdout+stderr, `"ctxdeadline"`) {
		t.Errorf("go vet -json: exit %d:\n%s%s", code, stdout, stderr)
	}
}

// TestNoDataRace runs a race-detector build of resilint on a module whose
// packages the shared context model skips, so that the analyzers that read
// it concurrently also build its index lazily: no reader may see it half
// built (a concurrent map read and write once crashed resilint on jaeger).
func TestNoDataRace(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "resilint-race")
	if _, stderr, code := run(t, ".", "go", "build", "-race", "-o", bin, "."); code != 0 {
		t.Skipf("no race-detector build here: %s", stderr)
	}
	dir := copyModule(t, "racemod")
	for range 2 {
		_, stderr, code := run(t, dir, bin, "./...")
		// The work is local (no dependency): the analyzers read the
		// model and report nothing (issue 13, rule 1).
		if strings.Contains(stderr, "DATA RACE") || code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	}
}
