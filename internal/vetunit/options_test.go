package vetunit

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/resilint/resilint/config"
)

// TestOptionsCarryEveryField: every exported field of config.Config reaches
// the tool through the flag. A field that did not (a new setting with
// `json:"-"` and no field of its own in Options) would be silently lost in
// the vet engine, and the cache key would not change with it.
func TestOptionsCarryEveryField(t *testing.T) {
	cfg := config.Default()
	v := reflect.ValueOf(cfg).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fillNonZero(t, f.Name, v.Field(i))
	}
	opts := &Options{Config: cfg, Tests: true}
	s, err := opts.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeOptions(s)
	if err != nil {
		t.Fatal(err)
	}
	gv := reflect.ValueOf(got.Config).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if !reflect.DeepEqual(v.Field(i).Interface(), gv.Field(i).Interface()) {
			t.Errorf("config field %s: sent %v, the tool got %v", f.Name, v.Field(i).Interface(), gv.Field(i).Interface())
		}
	}
	if !got.Tests {
		t.Error("Tests lost")
	}
	again, _ := opts.Encode()
	if again != s {
		t.Errorf("the same options encode differently:\n%s\n%s", s, again)
	}
}

// TestOptionsKeepEmptySlices: an empty list is not a missing one (an empty
// exclude-dirs turns off the default directories).
func TestOptionsKeepEmptySlices(t *testing.T) {
	cfg := config.Default()
	v := reflect.ValueOf(cfg).Elem()
	var names []string
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice && v.Type().Field(i).IsExported() {
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			names = append(names, v.Type().Field(i).Name)
		}
	}
	s, err := (&Options{Config: cfg}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeOptions(s)
	if err != nil {
		t.Fatal(err)
	}
	gv := reflect.ValueOf(got.Config).Elem()
	for _, name := range names {
		if f := gv.FieldByName(name); f.IsNil() {
			t.Errorf("config field %s: sent an empty list, the tool got none", name)
		}
	}
}

// fillNonZero gives v a value that differs from its zero value.
func fillNonZero(t *testing.T, name string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 7)
	case reflect.String:
		v.SetString("x" + name)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillNonZero(t, name, s.Index(0))
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillNonZero(t, name, p.Elem())
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillNonZero(t, name+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		e := reflect.New(v.Type().Elem()).Elem()
		fillNonZero(t, name, k)
		fillNonZero(t, name, e)
		m.SetMapIndex(k, e)
		v.Set(m)
	default:
		t.Fatalf("config field %s: kind %s: teach fillNonZero about it", name, v.Kind())
	}
}

// TestVersionIsTheBuildID: -V=full names the executable by the content part
// of its Go build ID, which differs between two builds that differ.
func TestVersionIsTheBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	id := goBuildID(exe)
	if id == "" || strings.Count(id, "/") < 1 {
		t.Fatalf("no Go build ID in the test binary: %q", id)
	}
	var out strings.Builder
	if err := PrintVersion(&out); err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(out.String())
	if len(f) < 3 || f[1] != "version" || !strings.HasPrefix(f[len(f)-1], "buildID=") || f[len(f)-1] != "buildID="+id {
		t.Errorf("-V=full: %q, want the go command's format with buildID=%s", out.String(), id)
	}
}
