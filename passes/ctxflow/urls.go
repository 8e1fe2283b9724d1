package ctxflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
)

// URLShapes returns the shapes of the text of a URL value (a *url.URL or
// url.URL expression): what its String method gives, up to the end of its
// authority (scheme and host). A URL is read where it is built: a
// composite literal with a proven scheme and host, a parse of a string
// whose shapes are known, a method that keeps the host (JoinPath); through
// variables of this package whose every definition is visible and that are
// never given another scheme, host or user (u.Path = p keeps them), and
// unexported fields the package alone sets. ok is false when the URL comes
// from out of sight.
func (m *Model) URLShapes(e ast.Expr) ([]Shape, bool) {
	m.Index()
	return m.urlShapes(e, map[*types.Var]bool{}, 0)
}

func (m *Model) urlShapes(e ast.Expr, seen map[*types.Var]bool, depth int) ([]Shape, bool) {
	if depth > maxDepth || e == nil {
		return nil, false
	}
	t := m.Table.URLs
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return m.urlShapes(x.X, seen, depth+1)
		}
	case *ast.StarExpr:
		return m.urlShapes(x.X, seen, depth+1)
	case *ast.CompositeLit:
		if t.Type != "" && analysisutil.TypeKey(m.info.TypeOf(x)) == t.Type {
			return m.urlLitShapes(x, seen, depth)
		}
	case *ast.CallExpr:
		fn, recv := m.Callee(x)
		if fn == nil {
			return nil, false
		}
		key := analysisutil.Key(fn)
		if i, ok := t.Parsers[key]; ok && i < len(x.Args) {
			texts, ok := m.shapes(x.Args[i], seen, depth+1)
			if !ok {
				return nil, false
			}
			var out []Shape
			for _, s := range texts {
				out = append(out, authorityShapes(s)...)
			}
			return out, true
		}
		if t.SameHost[key] && recv != nil {
			return m.urlShapes(recv, seen, depth+1)
		}
	case *ast.SelectorExpr:
		f := analysisutil.FieldOf(m.info, x)
		if f == nil {
			return nil, false
		}
		vals, ok := m.FieldValues(f)
		if !ok {
			return nil, false
		}
		var out []Shape
		for _, v := range vals {
			s, ok := m.urlShapes(v, seen, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, len(out) > 0
	case *ast.Ident:
		v, ok := m.info.Uses[x].(*types.Var)
		if !ok || seen[v] || m.addrTaken[v] || !m.local(v) {
			return nil, false
		}
		if _, isParam := m.params[v]; isParam {
			return nil, false
		}
		for _, fs := range m.fieldSets[v] {
			field, _, _ := strings.Cut(fs.path, ".")
			if field == "" || field == t.SchemeField || field == t.HostField || slices.Contains(t.AuthorityFields, field) {
				return nil, false // u.Host = h: another host
			}
		}
		seen[v] = true
		defer delete(seen, v)
		var out []Shape
		for _, d := range m.defs[v] {
			if d.zero || d.rhs == nil || d.index > 0 || d.rangeOver != nil {
				return nil, false
			}
			s, ok := m.urlShapes(d.rhs, seen, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, len(out) > 0
	}
	return nil, false
}

// urlLitShapes reads a URL composite literal: its scheme and host, when
// every other field it is given comes after them.
func (m *Model) urlLitShapes(lit *ast.CompositeLit, seen map[*types.Var]bool, depth int) ([]Shape, bool) {
	t := m.Table.URLs
	var scheme, host ast.Expr
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		id, ok := kv.Key.(*ast.Ident)
		switch {
		case !ok:
			return nil, false
		case id.Name == t.SchemeField:
			scheme = kv.Value
		case id.Name == t.HostField:
			host = kv.Value
		case slices.Contains(t.AuthorityFields, id.Name):
			return nil, false
		}
	}
	if scheme == nil || host == nil {
		return nil, false
	}
	schemes, ok := m.shapes(scheme, seen, depth+1)
	if !ok {
		return nil, false
	}
	hosts, ok := m.shapes(host, seen, depth+1)
	if !ok || len(schemes)*len(hosts) > maxShapes {
		return nil, false
	}
	var out []Shape
	for _, s := range schemes {
		if !s.Whole || s.Prefix == "" {
			return nil, false
		}
		for _, h := range hosts {
			if h.Whole && h.Prefix == "" {
				return nil, false // no host: "http:" and the path
			}
			if strings.ContainsAny(h.Prefix, " /?#@%") {
				return nil, false // escaped, or not a host
			}
			a := s.Prefix + "://" + h.Prefix
			if !h.Whole {
				out = append(out, Shape{Prefix: a})
				continue
			}
			out = append(out, authorityEnds(a)...)
		}
	}
	return out, true
}

// authorityShapes returns the shapes of the text of a URL parsed from a
// string of shape s: its scheme (lower case) and authority, then anything.
// A string without "://" is read no further.
func authorityShapes(s Shape) []Shape {
	i := strings.Index(s.Prefix, "://")
	if i < 0 {
		return []Shape{{}}
	}
	scheme, rest := strings.ToLower(s.Prefix[:i]), s.Prefix[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		return authorityEnds(scheme + "://" + rest[:j])
	}
	if s.Whole {
		return authorityEnds(scheme + "://" + rest)
	}
	return []Shape{{Prefix: scheme + "://" + rest}}
}

// authorityEnds returns the shapes of a URL text whose scheme and
// authority are a and whose path, query and fragment are unknown: what
// follows a is "/", "?", "#" or nothing.
func authorityEnds(a string) []Shape {
	return []Shape{{Prefix: a + "/"}, {Prefix: a + "?"}, {Prefix: a + "#"}, {Prefix: a, Whole: true}}
}
