package vetunit

// The fact set of one unit. It follows golang.org/x/tools/internal/facts
// (Copyright 2018 The Go Authors, BSD-style license), which unitchecker
// uses and which cannot be imported: the facts of a package are read from
// the facts files of its direct imports; a package's file holds the facts
// about its own objects plus those about fields, methods and types of its
// dependencies, so that an importer learns about every object the API it
// imports can reach. The encoding is gob, sorted, and empty for no facts:
// the fast path reads "no facts" from a file's size.

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

type factKey struct {
	pkg *types.Package
	obj types.Object // nil for a package fact
	t   reflect.Type
}

// factSet is a set of facts: those imported from dependencies and those
// the unit's analyzers export. Its methods are safe for concurrent use.
type factSet struct {
	pkg *types.Package
	mu  sync.Mutex
	m   map[factKey]analysis.Fact
}

func (s *factSet) importObjectFact(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("nil object")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[factKey{obj.Pkg(), obj, reflect.TypeOf(ptr)}]; ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
		return true
	}
	return false
}

func (s *factSet) exportObjectFact(obj types.Object, fact analysis.Fact) {
	if obj.Pkg() != s.pkg {
		panic(fmt.Sprintf("in package %s: ExportObjectFact(%s, %T): can't set a fact on an object of another package", s.pkg.Path(), obj, fact))
	}
	s.mu.Lock()
	s.m[factKey{obj.Pkg(), obj, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *factSet) importPackageFact(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("nil package")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[factKey{pkg, nil, reflect.TypeOf(ptr)}]; ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
		return true
	}
	return false
}

func (s *factSet) exportPackageFact(fact analysis.Fact) {
	s.mu.Lock()
	s.m[factKey{s.pkg, nil, reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *factSet) allObjectFacts(filter map[reflect.Type]bool) []analysis.ObjectFact {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []analysis.ObjectFact
	for k, v := range s.m {
		if k.obj != nil && filter[k.t] {
			out = append(out, analysis.ObjectFact{Object: k.obj, Fact: v})
		}
	}
	return out
}

func (s *factSet) allPackageFacts(filter map[reflect.Type]bool) []analysis.PackageFact {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []analysis.PackageFact
	for k, v := range s.m {
		if k.obj == nil && filter[k.t] {
			out = append(out, analysis.PackageFact{Package: k.pkg, Fact: v})
		}
	}
	return out
}

// gobFact is the encoding of one fact.
type gobFact struct {
	PkgPath string          // the package of the object, or of a package fact
	Object  objectpath.Path // "" for a package fact
	Fact    analysis.Fact
}

// decodeFacts reads the facts of pkg's direct imports. read returns the
// facts file of an import; lookup returns a package known to this unit by
// path (nil: the fact is about a package the unit cannot name; dropped).
func decodeFacts(pkg *types.Package, read func(path string) ([]byte, error), lookup func(path string) *types.Package) (*factSet, error) {
	m := map[factKey]analysis.Fact{}
	for _, imp := range pkg.Imports() {
		data, err := read(imp.Path())
		if err != nil {
			return nil, fmt.Errorf("in %s, cannot import facts of %s: %v", pkg.Path(), imp.Path(), err)
		}
		if len(data) == 0 {
			continue
		}
		var facts []gobFact
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&facts); err != nil {
			return nil, fmt.Errorf("decoding facts of %s: %v", imp.Path(), err)
		}
		for _, f := range facts {
			fp := lookup(f.PkgPath)
			if fp == nil {
				continue
			}
			k := factKey{pkg: fp, t: reflect.TypeOf(f.Fact)}
			if f.Object != "" {
				obj, err := objectpath.Object(fp, f.Object)
				if err != nil {
					continue // not reachable from this unit's imports
				}
				k.obj = obj
			}
			m[k] = f.Fact
		}
	}
	return &factSet{pkg: pkg, m: m}, nil
}

// encode returns the facts to write for importers: the package's own, and
// those about fields, methods and types of its dependencies (package-level
// objects and packages of dependencies are only ever read from their own
// package's file). It is empty when there is no fact.
func (s *factSet) encode() ([]byte, error) {
	enc := new(objectpath.Encoder)
	var facts []gobFact
	s.mu.Lock()
	for k, fact := range s.m {
		if k.pkg != s.pkg {
			if k.obj == nil {
				continue
			}
			if _, isType := k.obj.(*types.TypeName); !isType && k.obj.Parent() == k.obj.Pkg().Scope() {
				continue
			}
		}
		var path objectpath.Path
		if k.obj != nil {
			p, err := enc.For(k.obj)
			if err != nil {
				continue // not reachable from the package's API
			}
			path = p
		}
		facts = append(facts, gobFact{PkgPath: k.pkg.Path(), Object: path, Fact: fact})
	}
	s.mu.Unlock()
	if len(facts) == 0 {
		return nil, nil
	}
	sort.Slice(facts, func(i, j int) bool {
		x, y := facts[i], facts[j]
		if x.PkgPath != y.PkgPath {
			return x.PkgPath < y.PkgPath
		}
		if x.Object != y.Object {
			return x.Object < y.Object
		}
		return reflect.TypeOf(x.Fact).String() < reflect.TypeOf(y.Fact).String()
	})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(facts); err != nil {
		for _, f := range facts {
			if err := gob.NewEncoder(new(bytes.Buffer)).Encode(f); err != nil {
				return nil, fmt.Errorf("encoding fact %T (%v): %v", f.Fact, f.Fact, err)
			}
		}
		return nil, err
	}
	return buf.Bytes(), nil
}
