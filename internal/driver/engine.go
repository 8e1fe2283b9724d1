package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/resilint/resilint/internal/vetunit"
)

// The vet engine (the default): the go command analyses every package in its
// own process, through go vet -vettool and package vetunit, and keeps each
// package's facts and results in GOCACHE, so that a run analyses only what
// changed since the last one, on this machine or on any machine that shares
// the cache (GOCACHEPROG). The driver reads the results (one vetunit.Unit per
// root package, on go vet's standard output) and applies its filters,
// outputs and fixes to them as to the in-process engine's.

// errInterrupted is returned when the run was interrupted (SIGINT, SIGTERM):
// the driver then writes nothing.
var errInterrupted = errors.New("interrupted")

// vetRun is the outcome of the vet engine.
type vetRun struct {
	units  []vetunit.Unit
	failed bool // some package could not be analysed (named on stderr)
}

// vetEngine runs go vet with resilint as the vet tool on the patterns, with
// the overlay ov. When quiet, it prints neither progress nor the packages
// that fail.
func (d *run) vetEngine(patterns []string, ov *vetOverlay, quiet bool) (*vetRun, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find resilint's own executable for go vet -vettool: %v", err)
	}
	opts := vetunit.Options{Config: d.cfg, Tests: d.loadTests, ModFiles: modFilesKey()}
	flagValue, err := opts.Encode()
	if err != nil {
		return nil, err
	}
	// With -test=false the go command does not see the test files (see
	// overlay.go).
	var hide []string
	if !d.loadTests {
		base, err := ov.flags(nil)
		if err != nil {
			return nil, err
		}
		if pkgs, err := d.listTestFiles(patterns, base); err == nil {
			hide = d.testFilesOf(pkgs)
			if err := ov.addRootTests(pkgs, d.modCache); err != nil {
				return nil, err
			}
		}
	}
	// With test packages on, the units of the module's own packages print
	// their findings as dependencies too (see roots.go); sel keeps the
	// roots'.
	var sel *rootSet
	if d.loadTests {
		dirs, rest := localDirs(patterns)
		sel = &rootSet{dirs: map[string]bool{}, back: ov.back}
		sel.add(dirs...)
		var roots []rootPkg
		if !ownModules() {
			roots = packageNames(dirs, d.tags)
		}
		if len(rest) > 0 {
			base, err := ov.flags(nil)
			if err != nil {
				return nil, err
			}
			// go vet names what is wrong with a pattern; without the list
			// those packages are vetted as before.
			if pkgs, err := d.listTestFiles(rest, base); err == nil {
				roots = append(roots, listedRoots(pkgs, d.modCache)...)
				for _, p := range pkgs {
					sel.add(p.Dir)
				}
			}
		}
		for _, r := range roots {
			if _, err := os.Stat(filepath.Join(r.dir, rootTestFile)); err == nil {
				continue // a file of that name on disk: leave it
			}
			if err := ov.addRootTest(r.dir, r.name); err != nil {
				return nil, err
			}
		}
	}
	extra, err := ov.flags(hide)
	if err != nil {
		return nil, err
	}
	listExtra, err := ov.listFlags(hide)
	if err != nil {
		return nil, err
	}
	var prog *progress
	if !quiet {
		prog = d.newProgress()
	}
	defer prog.done()
	var events *eventLog
	if d.verbose || prog != nil {
		if events, err = newEventLog(); err != nil {
			return nil, err
		}
		defer events.close()
	}
	if prog != nil {
		// The dependencies analysed so far, as the units log them.
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					n, _, _ := events.counts()
					prog.setDeps(n["facts"] + n["fast"])
				}
			}
		}()
		// The total is the number of root units: known from go list,
		// which runs while go vet does.
		go func() {
			if l, err := d.goList(patterns, listExtra, false); err == nil {
				prog.setTotal(l.expectedUnits())
			}
		}()
	}

	out := &vetRun{}
	res, err := d.goVetUnits(exe, flagValue, patterns, extra, sel, events, prog)
	if err != nil {
		return nil, err
	}
	if res.code != 0 || res.unitErrors() {
		// Some package did not load, compile or type-check: name it and
		// every root it keeps from being analysed. Analyse what load
		// errors kept go vet from analysing: when go vet stopped at
		// loading (load errors abort it before any analysis), the
		// packages that load; and the packages that load while their
		// test packages do not, without their test files.
		l, err := d.failureListing(res, patterns, listExtra)
		if err != nil {
			return nil, err
		}
		done := map[string]bool{}
		for _, u := range res.units {
			done[u.ID] = true
		}
		var again []string
		stopped := len(res.units) == 0 && res.code != 0
		if stopped {
			again = l.loadableRoots()
		}
		var broken []*listPkg
		for _, p := range l.testBroken() {
			if !done[p.ImportPath] {
				broken = append(broken, p)
				again = append(again, p.ImportPath)
			}
		}
		if len(again) > 0 && (len(broken) > 0 || len(again) < len(l.rootPaths())) {
			flags, err := ov.flags(append(hide, d.testFilesOf(broken)...))
			if err != nil {
				return nil, err
			}
			// A run of its own (Apart, a cache key of its own), unless
			// every package of it belongs to a main module and test
			// packages are on: then their units print the same
			// whether the go command ran them as roots or as
			// dependencies, and the second run shares the first one's
			// results instead of analysing every dependency again.
			apart := opts
			apart.Apart = !d.loadTests || !l.allMain(again)
			apartValue, err := apart.Encode()
			if err != nil {
				return nil, err
			}
			more, err := d.goVetUnits(exe, apartValue, again, flags, sel, events, prog)
			if err != nil {
				return nil, err
			}
			if stopped {
				// The first run stopped at the load errors, which
				// go list names.
				res = more
			} else {
				res.units = append(res.units, more.units...)
				res.stderr = append(res.stderr, more.stderr...)
			}
		}
		w := d.stderr
		if quiet {
			w = io.Discard
		}
		out.failed = reportFailures(w, l, res)
	}
	out.units = distinctViews(res.units)
	prog.done()
	if d.verbose && !quiet {
		d.printCounts(events, out.units)
	}
	return out, nil
}

// distinctViews returns the units with every package in one view only. A
// package of the module with test files is a view of its root unit
// "p [p.test]" and, when it was also an importer's dependency, of the unit
// "p" of that run (see roots.go): the root unit's view is kept, as when
// dependencies printed nothing, and a unit left without views is dropped.
func distinctViews(units []vetunit.Unit) []vetunit.Unit {
	from := map[string]int{} // view ID -> the unit it is taken from
	for i, u := range units {
		for _, v := range u.Views {
			if j, ok := from[v.ID]; !ok || units[j].ID == v.ID && u.ID != v.ID {
				from[v.ID] = i
			}
		}
	}
	out := units[:0]
	for i, u := range units {
		views := u.Views[:0:0]
		for _, v := range u.Views {
			if from[v.ID] == i {
				views = append(views, v)
			}
		}
		if len(views) == 0 && u.Error == "" && len(u.Views) > 0 {
			continue
		}
		u.Views = views
		out = append(out, u)
	}
	return out
}

// failureListing returns the package graph that the report of a failed run
// needs. When go vet exited 0 and printed nothing on standard error, every
// package loaded and every root unit ran (a unit that cannot run exits 1,
// and so does go vet): the failures are the type errors the units carry,
// each named by its unit, with nothing left unanalysed for the graph to
// explain and no load error to analyse around. go list -deps -test costs
// about as much as the whole cached run on a large module (vitess: 2.3 s
// of 6.5 s), so it is not asked then.
func (d *run) failureListing(res *vetResult, patterns, listExtra []string) (*listing, error) {
	if res.code == 0 && len(bytes.TrimSpace(res.stderr)) == 0 {
		return &listing{byID: map[string]*listPkg{}}, nil
	}
	return d.goList(patterns, listExtra, true)
}

// vetResult is one go vet invocation's output.
type vetResult struct {
	units  []vetunit.Unit
	stderr []byte
	code   int
}

func (r *vetResult) unitErrors() bool {
	for _, u := range r.units {
		if u.Error != "" {
			return true
		}
	}
	return false
}

// goVetUnits runs go vet once, reading the units as they arrive.
func (d *run) goVetUnits(exe, flagValue string, patterns, extra []string, sel *rootSet, events *eventLog, prog *progress) (*vetResult, error) {
	args := []string{"vet", "-vettool=" + exe, "-json", "-" + vetunit.FlagName + "=" + flagValue}
	args = append(args, extra...)
	if d.tags != "" {
		args = append(args, "-tags="+d.tags)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Env = os.Environ()
	if events != nil {
		cmd.Env = append(cmd.Env, vetunit.EventsEnv+"="+events.name)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}

	// Forward an interrupt to the go command, which stops starting new
	// work, lets the running units finish (their results are complete and
	// cached) and exits; the driver then writes nothing.
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run go vet: %v", err)
	}
	var interrupted bool
	var mu sync.Mutex
	stop := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			mu.Lock()
			interrupted = true
			mu.Unlock()
			cmd.Process.Signal(s)
		case <-stop:
		}
	}()

	res := &vetResult{}
	dec := json.NewDecoder(stdout)
	var decodeErr error
	for {
		var u vetunit.Unit
		if err := dec.Decode(&u); err != nil {
			if err != io.EOF {
				decodeErr = fmt.Errorf("reading go vet's output: %v", err)
				io.Copy(io.Discard, stdout)
			}
			break
		}
		if u.Resilint != 1 || !sel.keep(&u) {
			continue
		}
		res.units = append(res.units, u)
		prog.add(u.ID)
	}
	err = cmd.Wait()
	close(stop)
	res.stderr = stderr.Bytes()
	mu.Lock()
	defer mu.Unlock()
	// An interrupt sent to the whole process group (a terminal's ^C) can
	// end go vet before this process's handler has seen it: go vet killed
	// by the signal, or the signal still pending, is an interrupt too.
	select {
	case <-sigc:
		interrupted = true
	default:
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Signaled() &&
		(st.Signal() == syscall.SIGINT || st.Signal() == syscall.SIGTERM) {
		interrupted = true
	}
	if interrupted {
		return nil, errInterrupted
	}
	if decodeErr != nil {
		return nil, decodeErr
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("go vet: %v", err)
		}
		res.code = ee.ExitCode()
	}
	return res, nil
}

// eventLog is the file the units append to (vetunit.EventsEnv).
type eventLog struct{ name string }

func newEventLog() (*eventLog, error) {
	f, err := os.CreateTemp("", "resilint-events-*")
	if err != nil {
		return nil, err
	}
	f.Close()
	return &eventLog{name: f.Name()}, nil
}

func (e *eventLog) close() { os.Remove(e.name) }

// counts returns how many units ran, by mode, the IDs of those that ran
// for findings, and the largest peak RSS of one (bytes).
func (e *eventLog) counts() (map[string]int, map[string]bool, int64) {
	data, _ := os.ReadFile(e.name)
	n := map[string]int{}
	ran := map[string]bool{}
	var peak int64
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 3 {
			n[f[1]]++
			if f[1] == "root" || f[1] == "skip" {
				ran[f[0]] = true
			}
			if len(f) >= 4 {
				if r, err := strconv.ParseInt(f[3], 10, 64); err == nil {
					peak = max(peak, r)
				}
			}
		}
	}
	return n, ran, peak
}

// printCounts prints, with -v, how many packages were analysed in this run
// and how many results came from the cache.
func (d *run) printCounts(events *eventLog, units []vetunit.Unit) {
	n, ran, peak := events.counts()
	analysed := n["root"] + n["facts"]
	cached := 0
	for _, u := range units {
		// The units log the package's import path ("p" for "p [p.test]").
		if path, _, _ := strings.Cut(u.ID, " ["); !ran[path] {
			cached++
		}
	}
	fmt.Fprintf(d.stderr, "resilint: %d packages analysed (%d for findings, %d for facts only), %d without facts skipped, %d of %d results from the cache\n",
		analysed, n["root"], n["facts"], n["fast"], cached, len(units))
	if analysed > 0 {
		fmt.Fprintf(d.stderr, "resilint: peak memory of one package's analysis %d MiB, of this process %d MiB\n", peak>>20, vetunit.PeakRSS()>>20)
	}
}

// runVetEngine runs the vet engine and converts its units to the neutral
// Result (the engine contract of finding.go). It returns nil when the run was
// interrupted or could not start; the status is ExitError when a package
// could not be analysed (named on stderr unless quiet).
func (d *run) runVetEngine(patterns []string, overlay map[string][]byte, quiet bool) (*Result, int) {
	ov, back, err := newVetOverlay(overlay)
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	defer ov.close()
	vr, err := d.vetEngine(patterns, ov, quiet)
	if err == errInterrupted {
		fmt.Fprintln(d.stderr, "resilint: interrupted; nothing was written")
		return nil, ExitInterrupted
	}
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	code := ExitClean
	if vr.failed {
		code = ExitError
	}
	res := convertUnits(vr.units, back)
	if len(res.Packages) == 0 {
		return nil, code
	}
	return res, code
}

// convertUnits converts the engine's units to the neutral form, each view
// a package, in the order the units arrived (the filters sort).
// back maps the files of an overlay to the files they stand for.
func convertUnits(units []vetunit.Unit, back map[string]string) *Result {
	res := &Result{}
	name := func(f string) string {
		if orig, ok := back[f]; ok {
			return orig
		}
		return f
	}
	for _, u := range units {
		for _, v := range u.Views {
			pkg := Package{ID: v.ID, Path: v.Path}
			for _, f := range v.Files {
				pkg.Files = append(pkg.Files, name(f))
			}
			if v.Imports != nil {
				pkg.Imports = make(map[string][]string, len(v.Imports))
				for f, list := range v.Imports {
					pkg.Imports[name(f)] = list
				}
			}
			res.Packages = append(res.Packages, pkg)
			for _, f := range v.Findings {
				res.Findings = append(res.Findings, convertUnitFinding(v.ID, f, name))
			}
			for _, e := range v.Errors {
				res.Errors = append(res.Errors, ActionError{Pkg: v.ID, Analyzer: e.Analyzer, Root: true, Err: e.Err})
			}
		}
	}
	return res
}

func convertUnitFinding(pkg string, f vetunit.Finding, name func(string) string) Finding {
	pos := func(p token.Position) token.Position {
		p.Filename = name(p.Filename)
		return p
	}
	out := Finding{
		Analyzer: f.Analyzer,
		Pkg:      pkg,
		Posn:     pos(f.Posn),
		End:      pos(f.End),
		Category: f.Category,
		Message:  f.Message,
	}
	for _, r := range f.Related {
		out.Related = append(out.Related, Related{Posn: pos(r.Posn), End: pos(r.End), Message: r.Message})
	}
	for _, fx := range f.Fixes {
		fix := Fix{Message: fx.Message}
		for _, e := range fx.Edits {
			file := e.File
			if file != "" {
				file = name(file)
			}
			fix.Edits = append(fix.Edits, Edit{File: file, Start: e.Start, End: e.End, New: []byte(e.New)})
		}
		out.Fixes = append(out.Fixes, fix)
	}
	return out
}

// modFilesKey returns a hash of the go.mod and go.work files that hold the
// working directory ("" when there are none): see vetunit.Options.ModFiles.
func modFilesKey() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	h := sha256.New()
	found := false
	for d := wd; ; {
		for _, name := range []string{"go.mod", "go.work"} {
			if data, err := os.ReadFile(filepath.Join(d, name)); err == nil {
				fmt.Fprintf(h, "%s %d\n", name, len(data)) // no directory: the key is the same on every machine
				h.Write(data)
				found = true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if !found {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
