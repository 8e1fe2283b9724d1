package deps

import (
	"go/ast"
	"strconv"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// same reports whether two values, written in the same function, are the
// same known value.
func same(a, b Sym) bool {
	if a.Kind != b.Kind || a.Kind == Unknown {
		return false
	}
	switch a.Kind {
	case Host, Service:
		return a.Name == b.Name
	}
	return a.Root == b.Root && a.Param == b.Param && a.Global == b.Global && strings.Join(a.Fields, ".") == strings.Join(b.Fields, ".")
}

func sameDep(a, b Dep) bool {
	return symEq(a.Target, b.Target) && symEq(a.Client, b.Client) && a.Type == b.Type
}

// symEq is same, with two unknowns equal.
func symEq(a, b Sym) bool {
	if a.Kind == Unknown && b.Kind == Unknown {
		return true
	}
	return same(a, b)
}

// A Site is a dependency reached from a place in the code: its values are
// written in Owner (the function declaration that contains the place).
type Site struct {
	Dep
	Owner *ast.FuncDecl
}

// Key returns a comparable identity of a value written in owner, and
// whether it is comparable across functions. A receiver's fields are keyed
// by the receiver's type (every method of the type sees the same fields);
// another parameter is comparable only within its function.
func (m *Model) Key(s Sym, owner *ast.FuncDecl) string {
	switch s.Kind {
	case Host:
		return "host:" + s.Name
	case Service:
		return "svc:" + s.Name
	case Path:
		var root string
		switch s.Root {
		case RootGlobal:
			root = "global:" + s.Global
		case RootParam:
			if owner == nil {
				return ""
			}
			if s.Param < 0 {
				if owner.Recv == nil || len(owner.Recv.List) == 0 {
					return ""
				}
				root = "recv:" + analysisutil.TypeKey(m.info.TypeOf(owner.Recv.List[0].Type))
			} else {
				root = "param:" + m.Pass.Fset.Position(owner.Pos()).String() + "#" + strconv.Itoa(s.Param)
			}
		}
		if len(s.Fields) > 0 {
			root += "." + strings.Join(s.Fields, ".")
		}
		return root
	}
	return ""
}

// comparable reports whether two keys can be compared: both known, of the
// same kind, and a function's parameter only with the same function's.
func comparable(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ka, _, _ := strings.Cut(a, ":")
	kb, _, _ := strings.Cut(b, ":")
	if ka != kb {
		// A gRPC service and a constant HTTP host are two dependencies;
		// a constant host and a base-URL value may be the same service.
		return (ka == "svc" && kb == "host") || (ka == "host" && kb == "svc")
	}
	if ka == "param" {
		fa, _, _ := strings.Cut(a, "#")
		fb, _, _ := strings.Cut(b, "#")
		return fa == fb
	}
	return true
}

// Different reports whether two reached dependencies are known to be
// different: they are known at the same level (target, then client, then
// type) and differ there. Paths of one host are one dependency.
func (m *Model) Different(a, b Site) bool {
	ta, tb := m.Key(a.Target, a.Owner), m.Key(b.Target, b.Owner)
	if ta != "" && tb != "" {
		if httpAndService(a, b) || httpAndService(b, a) {
			return true
		}
		return comparable(ta, tb) && ta != tb
	}
	ca, cb := m.Key(a.Client, a.Owner), m.Key(b.Client, b.Owner)
	if ca != "" && cb != "" {
		return comparable(ca, cb) && ca != cb
	}
	if a.Type != "" && b.Type != "" {
		return a.Type != b.Type
	}
	return false
}

// httpAndService reports whether a is an HTTP request to a URL built on a
// value (a base-URL field, a variable) and b a call of a gRPC service: two
// dependencies, like a gRPC service and a constant HTTP host. A dial or a
// database call on an address value is not: the address may be the gRPC
// server's.
func httpAndService(a, b Site) bool {
	return a.Kind == knowledge.HTTP && a.Target.Kind == Path && b.Kind == knowledge.GRPC && b.Target.Kind == Service
}

// Known reports whether anything identifies the dependency.
func (s Site) Known() bool { return s.Target.Known() || s.Client.Known() || s.Type != "" }

// Describe names the dependency for messages: the host, the service, or
// the spelling of the base-URL or client value.
func (s Site) Describe() string {
	for _, v := range []Sym{s.Target, s.Client} {
		if v.Known() && v.Text != "" {
			return v.Text
		}
	}
	if s.Type != "" {
		return shortType(s.Type)
	}
	return "an unknown dependency"
}

// Name returns a stable name for the dependency, for a per-dependency
// breaker (resil.BreakerFor(name)), or "" when it has none: the host, the
// service, or the type and fields of a base-URL or client value
// (notify.GuestNotifier.pushAPI).
func (m *Model) Name(s Site) string {
	for _, v := range []Sym{s.Target, s.Client} {
		if !v.Known() {
			continue
		}
		switch v.Kind {
		case Host:
			return v.Name
		case Service:
			return shortType(v.Name)
		}
		var root string
		switch v.Root {
		case RootGlobal:
			root = shortType(v.Global)
		case RootParam:
			if v.Param >= 0 || s.Owner == nil || s.Owner.Recv == nil || len(s.Owner.Recv.List) == 0 {
				return ""
			}
			root = shortType(analysisutil.TypeKey(m.info.TypeOf(s.Owner.Recv.List[0].Type)))
		}
		if root == "" {
			return ""
		}
		if len(v.Fields) > 0 {
			root += "." + strings.Join(v.Fields, ".")
		}
		return root
	}
	return ""
}
