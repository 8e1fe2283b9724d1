package fixgen_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/internal/fixgen"
)

var (
	flagN        = flag.Int("fixgen.n", 300, "number of programs to generate")
	flagSeed     = flag.Uint64("fixgen.seed", 1, "seed of the first program")
	flagKeep     = flag.String("fixgen.keep", "", "write the modules to this directory and keep them")
	flagResilint = flag.String("fixgen.resilint", "", "resilint binary to test (default: build ./cmd/resilint)")
	flagShow     = flag.Int("fixgen.show", 10, "failures to print in full")
)

func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

func run(dir, name string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return o.String(), e.String(), code, err
}

// failure is one program that the fixes broke.
type failure struct {
	module, pkg string
	class       string
	detail      string
}

// pkgOf returns the program package a line of tool output is about
// ("p0012/a.go:3:4: ..." or "# example.com/mresil/p0012").
var pkgRE = regexp.MustCompile(`(p\d{4})[/\s:]`)

// TestGeneratedPrograms generates programs in three modules (one requiring
// resil, one not, one with an errgroup that has no SetLimit), applies
// resilint -fix, and checks that every program still builds and passes go
// vet, that no fix was refused, and that a second -fix changes nothing.
func TestGeneratedPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and vets hundreds of packages")
	}
	start := time.Now()
	root := repoRoot(t)
	bin := *flagResilint
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "resilint")
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		if _, stderr, code, err := run(root, "go", "build", "-o", bin, "./cmd/resilint"); err != nil || code != 0 {
			t.Fatalf("building resilint: %v %s", err, stderr)
		}
	}
	dir := *flagKeep
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mods := modules(*flagN, *flagSeed)
	if err := fixgen.WriteModules(dir, filepath.Join(root, "internal", "fixgen", "testdata", "stubs"), filepath.Join(root, "resil"), mods); err != nil {
		t.Fatal(err)
	}

	var failures []failure
	fail := func(m, pkg, class, detail string) {
		failures = append(failures, failure{m, pkg, class, detail})
	}
	for _, m := range mods {
		if len(m.Seeds) == 0 {
			continue
		}
		mdir := filepath.Join(dir, m.Name)
		var times []string
		last := time.Now()
		tick := func(what string) {
			times = append(times, fmt.Sprintf("%s %s", what, time.Since(last).Round(100*time.Millisecond)))
			last = time.Now()
		}
		before := snapshot(t, mdir)
		_, stderr, code, err := run(mdir, bin, "-fix", "./...")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(stderr, "\n") {
			if strings.Contains(line, "not applied") || strings.Contains(line, "not fixed") || strings.Contains(line, "panic") {
				fail(m.Name, pkgIn(line), "fix refused", line)
			}
		}
		if code != 0 && code != 3 && !strings.Contains(stderr, "not applied") {
			fail(m.Name, "", "resilint -fix exited "+fmt.Sprint(code), stderr)
		}
		fixed := snapshot(t, mdir)
		changed := map[string]bool{}
		for path, data := range fixed {
			if before[path] != data {
				changed[pkgIn(path+"/")] = true
			}
		}
		tick("-fix")
		// go vet type-checks and vets every program; when it stops at a
		// problem of the module (an import it cannot resolve), type-check
		// them one by one to say which.
		_, stderr, code, err = run(mdir, "go", "vet", "./...")
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 {
			byPkg := map[string][]string{}
			for _, line := range strings.Split(stderr, "\n") {
				if p := pkgIn(line); p != "" {
					byPkg[p] = append(byPkg[p], line)
				}
			}
			if !strings.Contains(stderr, "# ") {
				byPkg = map[string][]string{}
				for p, errs := range typeErrors(t, mdir) {
					if len(errs) > 0 {
						byPkg[pkgIn(p+"/")] = errs
					}
				}
			}
			if len(byPkg) == 0 {
				fail(m.Name, "", "go vet", stderr)
			}
			for p, lines := range byPkg {
				class := "go vet"
				for _, l := range lines {
					if strings.HasPrefix(l, "vet: ") || strings.Contains(l, "could not import") || strings.Contains(l, "cannot find") || !strings.Contains(stderr, "# ") {
						class = "does not build"
					}
				}
				fail(m.Name, p, class, strings.Join(lines, "\n"))
			}
		}
		tick("vet")
		if _, stderr, _, err = run(mdir, bin, "-fix", "./..."); err != nil {
			t.Fatal(err)
		}
		again := snapshot(t, mdir)
		for path, data := range again {
			if fixed[path] != data {
				rel, _ := filepath.Rel(mdir, path)
				p := pkgIn(rel)
				var why []string
				for _, l := range strings.Split(stderr, "\n") {
					if strings.Contains(l, p+"/") {
						why = append(why, l)
					}
				}
				fail(m.Name, p, "second -fix changed", rel+"\n"+diffLines(fixed[path], data)+"\n"+strings.Join(why, "\n"))
			}
		}
		tick("second -fix")
		t.Logf("%s: %d programs, %d changed by -fix; %s", m.Name, len(m.Seeds), len(changed), strings.Join(times, ", "))
	}

	// A program that fails must have been valid before the fixes: else the
	// generator is wrong.
	checked := map[string]bool{}
	for _, f := range failures {
		key := f.module + "/" + f.pkg
		if f.pkg == "" || checked[key] {
			continue
		}
		checked[key] = true
		if msg := validBefore(t, dir, root, mods, f.module, f.pkg); msg != "" {
			t.Errorf("%s: the generated program does not pass go vet before any fix (a bug of the generator):\n%s", key, msg)
		}
	}

	// One failure per program and class.
	seen := map[string]bool{}
	classes := map[string]int{}
	programs := map[string]bool{}
	var shown int
	sort.SliceStable(failures, func(i, j int) bool { return failures[i].module+failures[i].pkg < failures[j].module+failures[j].pkg })
	for _, f := range failures {
		key := f.module + "/" + f.pkg + "/" + f.class
		if seen[key] {
			continue
		}
		seen[key] = true
		classes[f.class]++
		programs[f.module+"/"+f.pkg] = true
		if shown < *flagShow {
			shown++
			t.Errorf("%s/%s: %s:\n%s", f.module, f.pkg, f.class, f.detail)
		}
	}
	t.Logf("%d programs in %s; %d failed: %v", *flagN, time.Since(start).Round(time.Second), len(programs), classes)
	if len(programs) > 0 {
		t.Fail()
	}
	if len(programs) > 0 && *flagKeep == "" {
		t.Logf("rerun with -fixgen.keep=DIR -fixgen.seed=%d -fixgen.n=%d to look at the programs", *flagSeed, *flagN)
	}
}

// modules splits n programs over the three module flavors.
func modules(n int, seed uint64) []fixgen.Module {
	mods := []fixgen.Module{
		{Name: "mresil", Flavor: fixgen.Flavor{Resil: true}},
		{Name: "mplain"},
		{Name: "mold", Flavor: fixgen.Flavor{OldSync: true}},
	}
	for i := 0; i < n; i++ {
		k := 0
		switch i % 5 {
		case 1, 3:
			k = 1
		case 4:
			k = 2
		}
		mods[k].Seeds = append(mods[k].Seeds, seed+uint64(i))
	}
	return mods
}

// validBefore regenerates one program of a module in a module of its own
// and vets it: "" if it passes.
func validBefore(t *testing.T, dir, root string, mods []fixgen.Module, module, pkg string) string {
	for _, m := range mods {
		if m.Name != module {
			continue
		}
		var i int
		if _, err := fmt.Sscanf(pkg, "p%d", &i); err != nil || i >= len(m.Seeds) {
			return "no such program"
		}
		one := fixgen.Module{Name: m.Name, Flavor: m.Flavor, Seeds: []uint64{m.Seeds[i]}}
		sub := filepath.Join(t.TempDir(), "one")
		if err := fixgen.WriteModules(sub, filepath.Join(root, "internal", "fixgen", "testdata", "stubs"), filepath.Join(root, "resil"), []fixgen.Module{one}); err != nil {
			return err.Error()
		}
		_, stderr, code, err := run(filepath.Join(sub, m.Name), "go", "vet", "./...")
		if err != nil {
			return err.Error()
		}
		if code != 0 {
			return stderr
		}
		return ""
	}
	return "no such module"
}

// typeErrors type-checks the module's packages: import path → errors.
func typeErrors(t *testing.T, dir string) map[string][]string {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:  dir,
		Env:  append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, p := range pkgs {
		errs := []string{}
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		out[p.PkgPath] = errs
	}
	return out
}

func pkgIn(s string) string {
	if m := pkgRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[path] = string(data)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffLines shows the lines of b that are not in a, and of a not in b.
func diffLines(a, b string) string {
	in := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if mb[l] == 0 {
			out = append(out, "-"+l)
		} else {
			mb[l]--
		}
	}
	mb = in(b)
	for _, l := range strings.Split(b, "\n") {
		if ma[l] == 0 {
			out = append(out, "+"+l)
		} else {
			ma[l]--
		}
	}
	return strings.Join(out, "\n")
}
