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
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/vetunit"
	"github.com/resilint/resilint/suite"
)

// Engines.
const (
	engineVet       = "vet"
	engineInProcess = "inprocess"
)

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitError    = 1 // packages failed to load or analyze, or bad usage
	ExitFindings = 3 // findings reported
	// ExitInterrupted: the run was interrupted (SIGINT, SIGTERM) and wrote
	// nothing, as a shell reports a command killed by SIGINT.
	ExitInterrupted = 130
)

// Main runs the command with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if vetMode(args) {
		if engineMode(args) {
			return vetunit.Main(args)
		}
		if len(args) == 1 && (args[0] == "-V=full" || args[0] == "--V=full") {
			if err := vetunit.PrintVersion(stdout); err != nil {
				fmt.Fprintf(stderr, "resilint: %v\n", err)
				return ExitError
			}
			return ExitClean
		}
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

// engineMode reports whether the resilint command's engine invoked us
// through go vet (see package vetunit).
func engineMode(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-"+vetunit.FlagName+"=") || strings.HasPrefix(a, "--"+vetunit.FlagName+"=") {
			return true
		}
	}
	return false
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
	// The engine's flag, so that go vet accepts it from the command (see
	// engineMode); a vet run without it ignores it.
	flag.CommandLine.String(vetunit.FlagName, "", "settings of resilint's own engine (set by the resilint command)")
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
	engineName      string // engineVet or engineInProcess
	verbose         bool
	noProgress      bool
	enable          map[string]*triState

	newFromRev        string
	baselinePath      string
	writeBaselinePath string
	baseline          map[string]int          // fingerprints of -baseline
	changed           map[string]map[int]bool // lines changed since -new-from-rev

	analyzers []*analysis.Analyzer // the analyzers that run
	patterns  []string             // the packages to analyse
	tags      string               // -tags
	// engine analyses the packages, with overlay (file -> content) over
	// the files on disk; quiet: do not print load errors again.
	engine func(patterns []string, overlay map[string][]byte, quiet bool) (*Result, int)

	testOnlyPkgs map[string]bool // packages only test code imports

	modCacheOnce sync.Once
	modCacheDir  string // GOMODCACHE, for the vet engine's overlay

	fixed     bool                    // -fix ran: outputs report its fixes
	fixLines  []string                // -fix: one line per fix applied or not
	fixStatus map[*Finding]*candidate // -fix: the candidate of each finding
	rootDir   string                  // see root
	sources   map[string][]byte       // see source
	lineIndex map[string][]int        // see lines
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
	fs.BoolVar(&d.fix, "fix", false, "apply the suggested fixes that type-check, and print each one applied or not")
	fs.BoolVar(&d.diff, "diff", false, "with -fix, print the fixes as a unified diff (for git apply or patch -p1, from the repository root) instead of applying them")
	fs.BoolVar(&d.json, "json", false, "print findings as JSON on standard output (the go/analysis checker shape); same as -format json")
	fs.StringVar(&d.format, "format", "", "output formats, comma-separated: text (the default, on standard error), json, sarif (SARIF 2.1.0), github (GitHub Actions annotations); FORMAT:FILE writes one to a file")
	fs.StringVar(&d.newFromRev, "new-from-rev", "", "report only findings on lines changed since this git revision (committed or not), e.g. origin/main")
	fs.StringVar(&d.baselinePath, "baseline", "", "do not report the findings recorded in this baseline file")
	fs.StringVar(&d.writeBaselinePath, "write-baseline", "", "record every current finding in this baseline file and report none (exit 0 unless packages fail to load)")
	fs.IntVar(&d.context, "c", -1, "print the offending line with this many lines of context")
	fs.BoolVar(&d.loadTests, "test", true, "load test packages too (findings in _test.go files are reported only with -include-tests)")
	fs.StringVar(&d.configPath, "config", "", "configuration file (default: .resilint.yml at the module root, if any)")
	fs.StringVar(&d.dir, "C", "", "run in this directory (like go -C)")
	fs.StringVar(&d.tags, "tags", "", "comma-separated build tags to consider satisfied, as for go build (GOFLAGS=-tags=... works too)")
	fs.BoolVar(&d.unusedNolint, "report-unused-nolint", false, "report //nolint:resilint directives that suppress nothing")
	fs.StringVar(&d.engineName, "engine", engineVet, "how packages are analysed: "+engineVet+" (each package in its own process through go vet -vettool, with results cached in GOCACHE) or "+engineInProcess+" (every package in this process)")
	fs.BoolVar(&d.verbose, "v", false, "print how many packages were analysed and how many results came from the cache")
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

Exit codes:
  0  no findings (with -fix: every finding fixed)
  3  findings reported (with -fix: findings left, without a fix)
  1  an error: a package that does not load, bad flags or configuration,
     a fix that was not applied (-fix names it and says why)

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
	if d.engineName != engineVet && d.engineName != engineInProcess {
		return d.errorf("-engine: want %s or %s, not %q", engineVet, engineInProcess, d.engineName)
	}
	d.args = args
	outs, err := parseFormats(d.format, d.json)
	if err != nil {
		return d.errorf("%v", err)
	}
	d.outputs = outs
	if d.diff {
		for _, o := range outs {
			if o.path == "" && o.format != formatText {
				return d.errorf("-diff prints the diff on standard output: write %s to a file (-format %s:FILE)", o.format, o.format)
			}
		}
	}
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
				return d.errorf("writing %s (-format %s:%s): %v", o.path, o.format, o.path, err)
			}
		}
	}
	if d.writeBaselinePath != "" {
		if err := checkWritable(d.writeBaselinePath); err != nil {
			return d.errorf("writing %s (-write-baseline): %v", d.writeBaselinePath, err)
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
	d.patterns = patterns
	if d.engine == nil {
		d.engine = d.runVetEngine
		if d.engineName == engineInProcess {
			d.engine = d.runChecker
		}
	}
	res, code := d.engine(patterns, nil, false)
	if res == nil {
		return code
	}
	return d.report(res, code)
}

// report filters an engine's results, prints them or applies their fixes,
// and returns the exit code; status is the engine's (ExitError when a
// package failed to load).
func (d *run) report(res *Result, status int) int {
	// Files are written atomically (a temporary file renamed over the
	// target); an interrupt while they are written takes effect after
	// the last one, so that none is left half-written.
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	code := d.reportNow(res, status)
	select {
	case <-sigc:
		fmt.Fprintln(d.stderr, "resilint: interrupted")
		return ExitInterrupted
	default:
		return code
	}
}

func (d *run) reportNow(res *Result, status int) int {
	for _, e := range res.Errors {
		if e.Root && !strings.Contains(e.Err, "analysis skipped due to errors in package") && !strings.Contains(e.Err, "failed prerequisites") {
			fmt.Fprintf(d.stderr, "resilint: %s: %s: %v\n", pkgPathOf(res, e.Pkg), e.Analyzer, e.Err)
			status = ExitError
		}
	}
	all := d.filter(res)

	if d.writeBaselinePath != "" {
		if err := d.writeBaseline(d.writeBaselinePath, all); err != nil {
			return d.errorf("%v", err)
		}
		fmt.Fprintf(d.stderr, "resilint: recorded %d findings in %s\n", len(all), d.writeBaselinePath)
		return status
	}
	found := d.onlyNew(all)

	if d.fix {
		return d.fixFindings(res, all, found, status)
	}

	if status == ExitClean && len(found)+d.unused > 0 {
		status = ExitFindings
	}
	if err := d.writeOutputs(res, found, found, status); err != nil {
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
