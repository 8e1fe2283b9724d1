// Package vetunit is the per-package half of resilint's default engine. The
// command runs
//
//	go vet -vettool=<its own executable> -json -resilint-engine=<options> packages
//
// and the go command runs the executable once per package, bottom-up, with a
// unitchecker .cfg file, caching each run's facts file and standard output in
// GOCACHE under a key made of the tool's ID (a hash of the executable), the
// vet flags and the package's inputs. This package is what the executable
// does with a .cfg file when the -resilint-engine flag is present: it
// analyses the package (or, for a package that can have no facts, writes an
// empty facts file without reading it), and prints a [Unit] as JSON.
//
// Everything that changes what the analyzers do travels in the flag, so that
// the go command's cache key covers it: the resolved configuration (flags,
// .resilint.yml, -config, analyzer switches) and the engine's own settings.
// Types of dependencies come from the compiler's export data (the .cfg's
// PackageFile), not from the facts files, so that a package without facts
// costs nothing; facts files hold only facts.
package vetunit

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/resilint/resilint/config"
)

// FlagName is the vet flag that carries the [Options].
const FlagName = "resilint-engine"

// EventsEnv names a file to which each unit appends one line when it runs
// (see [Event]); the go command does not run units whose results it has
// cached, so the lines count the packages analysed again. The environment is
// not part of the cache key, and the file only reports: nothing it holds
// changes a result.
const EventsEnv = "RESILINT_ENGINE_EVENTS"

// Options are the settings of one engine run, as the command resolved them.
type Options struct {
	// Version of the options' encoding.
	Version int `json:"v"`
	// Config is the resolved configuration: defaults, the configuration
	// file, then the flags. Its fields without a JSON name travel below.
	Config *config.Config `json:"config"`
	// BudgetEverywhere and NoNolint are the Config fields of those names.
	BudgetEverywhere bool `json:"budget_everywhere,omitempty"`
	NoNolint         bool `json:"no_nolint,omitempty"`
	// EmptySlices names the Config fields that hold an empty, not nil,
	// slice (JSON's omitempty drops both; nil may mean "the default",
	// as for ExcludeDirs).
	EmptySlices []string `json:"empty_slices,omitempty"`
	// Tests: analyse test files and test packages (resilint -test). When
	// false, a package's test files are left out and external test
	// packages are not analysed, as the in-process engine does not load
	// them.
	Tests bool `json:"tests"`
	// Apart marks the second run the command makes after load errors,
	// of packages whose test files it hides (see the driver's
	// overlay.go). It changes no result, only the cache key: the go
	// command's key of a package's vet run does not tell a run for
	// findings from a run for facts only (an importer's dependency), so
	// without it the hidden-test run of a package that the first run
	// analysed for its importers' facts would replay that run's empty
	// output. Not needed, and not set, when test packages are on and every
	// package of that run is a main module's: their units print the same
	// in both roles.
	Apart bool `json:"apart,omitempty"`
	// ModFiles is a hash of the go.mod (and go.work) of the module the
	// command runs in. The analyses read a module's requirements (which
	// database drivers it can link, knowledge.ModuleSQLEngine), which the
	// go command's key of a package's vet run does not cover: a changed
	// go.mod must analyse again.
	ModFiles string `json:"modfiles,omitempty"`
}

const optionsVersion = 1

// Encode returns the flag value for o. The same options always give the
// same value (JSON of structs and slices is ordered), so the cache key of
// every package is stable across runs and machines.
func (o *Options) Encode() (string, error) {
	o.Version = optionsVersion
	if o.Config == nil {
		return "", fmt.Errorf("vetunit: options without a configuration")
	}
	o.BudgetEverywhere = o.Config.BudgetEverywhere
	o.NoNolint = o.Config.NoNolint
	o.EmptySlices = nil
	v := reflect.ValueOf(o.Config).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice && !f.IsNil() && f.Len() == 0 && v.Type().Field(i).IsExported() {
			o.EmptySlices = append(o.EmptySlices, v.Type().Field(i).Name)
		}
	}
	data, err := json.Marshal(o)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// DecodeOptions reads a flag value written by [Options.Encode].
func DecodeOptions(s string) (*Options, error) {
	var o Options
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		return nil, fmt.Errorf("-%s: %v", FlagName, err)
	}
	if o.Version != optionsVersion {
		return nil, fmt.Errorf("-%s: options of version %d, want %d (the command and the tool are different builds)", FlagName, o.Version, optionsVersion)
	}
	if o.Config == nil {
		o.Config = config.Default()
	}
	o.Config.BudgetEverywhere = o.BudgetEverywhere
	o.Config.NoNolint = o.NoNolint
	v := reflect.ValueOf(o.Config).Elem()
	for _, name := range o.EmptySlices {
		if f := v.FieldByName(name); f.IsValid() && f.Kind() == reflect.Slice && f.CanSet() {
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		}
	}
	return &o, nil
}
