// Package driver is the resilint command: a multichecker-style driver built
// on golang.org/x/tools/go/packages and go/analysis/checker, with resilint's
// filters (test files, //nolint), atomic fixes and output formats, and a
// go vet / go fix mode that hands over to unitchecker.
package driver

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/suite"
)

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitError    = 1 // packages failed to load or analyze, or bad usage
	ExitFindings = 3 // findings reported
)

// Main runs the command with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if vetMode(args) {
		runVet(args)
		return ExitError // unreachable: unitchecker exits
	}
	d := &run{stdout: stdout, stderr: stderr, cfg: config.Default()}
	return d.main(args)
}

// vetMode reports whether the go command invoked us as a vet or fix tool:
// go vet -vettool asks for -V=full and -flags, then passes a .cfg file.
func vetMode(args []string) bool {
	for _, a := range args {
		switch {
		case a == "-V=full", a == "--V=full", a == "-flags", a == "--flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// runVet hands over to unitchecker, with resilint's configuration flags on
// the global flag set so that go vet can pass them through.
func runVet(args []string) {
	cfg := config.Default()
	if dir, ok := vetDir(args); ok {
		if err := loadConfigFile(cfg, "", dir); err != nil {
			fmt.Fprintf(os.Stderr, "resilint: %v\n", err)
			os.Exit(ExitError)
		}
	}
	cfg.RegisterFlags(flag.CommandLine)
	analyzers, err := suite.Analyzers(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "resilint: %v\n", err)
		os.Exit(ExitError)
	}
	if err := cfg.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "resilint: %v\n", err)
		os.Exit(ExitError)
	}
	os.Args = append([]string{os.Args[0]}, args...)
	unitchecker.Main(analyzers...)
}

// vetDir returns the package directory of a unitchecker .cfg file, to find
// the module's .resilint.yml.
func vetDir(args []string) (string, bool) {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return "", false
	}
	dir, err := os.Getwd()
	return dir, err == nil
}

// run is one invocation of the standalone command.
type run struct {
	stdout, stderr io.Writer
	cfg            *config.Config

	args            []string // the command line, for SARIF
	fix, diff, json bool
	format          string
	outputs         []output
	context         int
	loadTests       bool
	configPath      string
	dir             string
	unusedNolint    bool
	unused          int // unused directives reported
	cpuProfile      string
	memProfile      string
	enable          map[string]*triState

	newFromRev        string
	baselinePath      string
	writeBaselinePath string
	baseline          map[string]int          // fingerprints of -baseline
	changed           map[string]map[int]bool // lines changed since -new-from-rev

	analyzers []*analysis.Analyzer // the analyzers that run
	rootDir   string               // see root
	sources   map[string][]byte    // see source
	lineIndex map[string][]int     // see lines
}

type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (t *triState) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "1", "t":
		*t = setTrue
	case "false", "0", "f":
		*t = setFalse
	default:
		return fmt.Errorf("want true or false")
	}
	return nil
}

func (t *triState) IsBoolFlag() bool { return true }

func (d *run) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("resilint", flag.ContinueOnError)
	fs.SetOutput(d.stderr)
	fs.BoolVar(&d.fix, "fix", false, "apply the suggested fixes")
	fs.BoolVar(&d.diff, "diff", false, "with -fix, print the fixes as a unified diff instead of applying them")
	fs.BoolVar(&d.json, "json", false, "print findings as JSON on standard output (the go/analysis checker shape); same as -format json")
	fs.StringVar(&d.format, "format", "", "output formats, comma-separated: text (the default, on standard error), json, sarif (SARIF 2.1.0), github (GitHub Actions annotations); FORMAT:FILE writes one to a file")
	fs.StringVar(&d.newFromRev, "new-from-rev", "", "report only findings on lines changed since this git revision (committed or not), e.g. origin/main")
	fs.StringVar(&d.baselinePath, "baseline", "", "do not report the findings recorded in this baseline file")
	fs.StringVar(&d.writeBaselinePath, "write-baseline", "", "record every current finding in this baseline file and report none (exit 0 unless packages fail to load)")
	fs.IntVar(&d.context, "c", -1, "print the offending line with this many lines of context")
	fs.BoolVar(&d.loadTests, "test", true, "load test packages too (findings in _test.go files are reported only with -include-tests)")
	fs.StringVar(&d.configPath, "config", "", "configuration file (default: .resilint.yml at the module root, if any)")
	fs.StringVar(&d.dir, "C", "", "run in this directory (like go -C)")
	fs.BoolVar(&d.unusedNolint, "report-unused-nolint", false, "report //nolint:resilint directives that suppress nothing")
	fs.StringVar(&d.cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&d.memProfile, "memprofile", "", "write a heap profile to this file")
	d.cfg.RegisterFlags(fs)
	d.enable = map[string]*triState{}
	for _, doc := range suite.Docs() {
		ts := new(triState)
		d.enable[doc.Name] = ts
		fs.Var(ts, doc.Name, "enable the "+doc.Name+" analyzer: "+doc.Summary)
	}
	fs.Usage = func() {
		fmt.Fprintf(d.stderr, `resilint finds outbound calls that can hang, retries that multiply, shared
circuit breakers and unbounded fan-out in Go code.

Usage:
  resilint [flags] packages...   analyze packages (like go vet: ./...)
  resilint help                  list the analyzers
  resilint help NAME             show an analyzer's documentation

Also usable as: go vet -vettool=$(command -v resilint) ./...

Flags:
`)
		fs.PrintDefaults()
	}
	return fs
}

func (d *run) errorf(format string, args ...any) int {
	fmt.Fprintf(d.stderr, "resilint: "+format+"\n", args...)
	return ExitError
}

func (d *run) main(args []string) int {
	fs := d.flags()
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitClean
		}
		return ExitError
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return ExitError
	}
	if rest[0] == "help" {
		return d.help(rest[1:])
	}
	if d.diff && !d.fix {
		return d.errorf("-diff needs -fix")
	}
	d.args = args
	outs, err := parseFormats(d.format, d.json)
	if err != nil {
		return d.errorf("%v", err)
	}
	d.outputs = outs
	if d.writeBaselinePath != "" && (d.fix || d.baselinePath != "" || d.newFromRev != "") {
		return d.errorf("-write-baseline records every finding: it cannot be combined with -fix, -baseline or -new-from-rev")
	}

	if d.dir != "" {
		if err := os.Chdir(d.dir); err != nil {
			return d.errorf("-C: %v", err)
		}
	}
	// Output files are checked before the (long) analysis: a typo in a path
	// fails at once, not after minutes.
	for _, o := range d.outputs {
		if o.path != "" {
			if err := checkWritable(o.path); err != nil {
				return d.errorf("-format %s:%s: %v", o.format, o.path, err)
			}
		}
	}
	if d.writeBaselinePath != "" {
		if err := checkWritable(d.writeBaselinePath); err != nil {
			return d.errorf("-write-baseline %s: %v", d.writeBaselinePath, err)
		}
	}
	// Flags given explicitly win over the configuration file: read the file
	// first, then parse the flags again on top of it.
	wd, err := os.Getwd()
	if err != nil {
		return d.errorf("%v", err)
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	fileCfg := config.Default()
	if err := loadConfigFile(fileCfg, d.configPath, wd); err != nil {
		return d.errorf("%v", err)
	}
	d.cfg = fileCfg
	fs = d.flags()
	_ = fs.Parse(args) // parsed successfully above
	d.applyEnableFlags(explicit)
	d.cfg.NoNolint = true // the driver applies //nolint itself (and can report unused ones)

	analyzers, err := suite.Analyzers(d.cfg)
	if err != nil {
		return d.errorf("%v", err)
	}
	if err := d.cfg.Err(); err != nil {
		return d.errorf("%v", err)
	}
	if len(analyzers) == 0 {
		return d.errorf("no analyzer is enabled")
	}
	d.analyzers = analyzers
	// Read the baseline and the diff before the (long) analysis, so that a
	// bad file or revision fails at once.
	if d.baselinePath != "" {
		if d.baseline, err = readBaseline(d.baselinePath); err != nil {
			return d.errorf("%v", err)
		}
	}
	if d.newFromRev != "" {
		if d.changed, err = d.changedLines(d.newFromRev); err != nil {
			return d.errorf("%v", err)
		}
	}
	return d.analyze(rest, analyzers)
}

// applyEnableFlags turns -NAME / -NAME=false into the configuration's enable
// and disable lists, as multichecker does: any -NAME=true runs only the
// named analyzers; otherwise -NAME=false turns those off.
func (d *run) applyEnableFlags(explicit map[string]bool) {
	var on, off []string
	for name, ts := range d.enable {
		switch *ts {
		case setTrue:
			on = append(on, name)
		case setFalse:
			off = append(off, name)
		}
	}
	sort.Strings(on)
	sort.Strings(off)
	if len(on) > 0 {
		d.cfg.Enable, d.cfg.Disable = on, nil
	} else if len(off) > 0 {
		d.cfg.Disable = append(d.cfg.Disable, off...)
	}
}

func (d *run) help(args []string) int {
	docs := suite.Docs()
	if len(args) == 0 {
		fmt.Fprintln(d.stdout, "resilint analyzers:")
		fmt.Fprintln(d.stdout)
		for _, doc := range docs {
			fmt.Fprintf(d.stdout, "    %-16s %s\n", doc.Name, doc.Summary)
		}
		fmt.Fprintln(d.stdout)
		fmt.Fprintln(d.stdout, "Run 'resilint help NAME' for an analyzer's documentation, 'resilint -help' for flags.")
		return ExitClean
	}
	status := ExitClean
	for _, name := range args {
		found := false
		for _, doc := range docs {
			if doc.Name == name {
				found = true
				fmt.Fprintf(d.stdout, "%s: %s\n\n%s\n", doc.Name, doc.Summary, doc.Body)
			}
		}
		if !found {
			fmt.Fprintf(d.stderr, "resilint: no analyzer named %q (known: %s)\n", name, strings.Join(suite.Names(), ", "))
			status = ExitError
		}
	}
	return status
}

func (d *run) analyze(patterns []string, analyzers []*analysis.Analyzer) int {
	if d.cpuProfile != "" {
		f, err := os.Create(d.cpuProfile)
		if err != nil {
			return d.errorf("%v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return d.errorf("%v", err)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if d.memProfile != "" {
		defer func() {
			f, err := os.Create(d.memProfile)
			if err != nil {
				fmt.Fprintf(d.stderr, "resilint: %v\n", err)
				return
			}
			runtime.GC()
			_ = pprof.WriteHeapProfile(f)
			f.Close()
		}()
	}
	res, code := d.runChecker(patterns, analyzers)
	if res == nil {
		return code
	}
	return d.report(res, code)
}

// report filters an engine's results, prints them or applies their fixes,
// and returns the exit code; status is the engine's (ExitError when a
// package failed to load).
func (d *run) report(res *Result, status int) int {
	for _, e := range res.Errors {
		if e.Root && !strings.Contains(e.Err, "analysis skipped due to errors in package") && !strings.Contains(e.Err, "failed prerequisites") {
			fmt.Fprintf(d.stderr, "resilint: %s: %s: %v\n", pkgPathOf(res, e.Pkg), e.Analyzer, e.Err)
			status = ExitError
		}
	}
	found := d.filter(res)

	if d.writeBaselinePath != "" {
		if err := d.writeBaseline(d.writeBaselinePath, found); err != nil {
			return d.errorf("%v", err)
		}
		fmt.Fprintf(d.stderr, "resilint: recorded %d findings in %s\n", len(found), d.writeBaselinePath)
		return status
	}
	found = d.onlyNew(found)

	if d.fix {
		if err := d.applyFixes(found); err != nil {
			fmt.Fprintf(d.stderr, "resilint: %v\n", err)
			return ExitError
		}
		return status
	}

	if status == ExitClean && len(found)+d.unused > 0 {
		status = ExitFindings
	}
	if err := d.writeOutputs(res, found, status); err != nil {
		return d.errorf("%v", err)
	}
	return status
}

// pkgPathOf returns the import path of the package with the given ID.
func pkgPathOf(res *Result, id string) string {
	for _, p := range res.Packages {
		if p.ID == id {
			return p.Path
		}
	}
	return id
}

// printText prints findings as "file:line:col: message", with file names
// relative to the working directory when they are inside it, and with -c N
// the offending line and N lines of context.
func (d *run) printText(w io.Writer, found []Finding) {
	for _, f := range found {
		fmt.Fprintf(w, "%s:%d:%d: %s\n", relPath(f.Posn.Filename), f.Posn.Line, f.Posn.Column, f.Message)
		if d.context >= 0 {
			printContext(w, f.Posn.Filename, f.Posn.Line, d.context)
		}
	}
}

func printContext(w io.Writer, file string, line, n int) {
	data, err := os.ReadFile(file)
	if err != nil {
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := max(line-n, 1); i <= min(line+n, len(lines)); i++ {
		fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
	}
}

func relPath(pos string) string {
	wd, err := os.Getwd()
	if err != nil {
		return pos
	}
	if r, err := filepath.Rel(wd, pos); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return pos
}
