package ctxflow

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// maxShapes caps the shapes one formatted string expands into: every
// argument with several shapes multiplies them.
const maxShapes = 16

// formatShapes returns the shapes of a formatted string (fmt.Sprintf) with
// the given format shape and arguments: the format's text, with each plain
// verb (%s, %v, %d) replaced by the shapes of its argument while the
// argument is proven (a constant, a variable given constants). The shape
// ends, not whole, at the first verb whose value is not proven, at a verb
// with flags, a width or an argument index, or at an argument whose own
// shape is not whole.
func (m *Model) formatShapes(format Shape, args []ast.Expr, seen map[*types.Var]bool, depth int) []Shape {
	type partial struct {
		prefix string
		done   bool // ended before the format did: not whole
	}
	parts := []partial{{}}
	f := format.Prefix
	arg := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			for j := range parts {
				if !parts[j].done {
					parts[j].prefix += f[i : i+1]
				}
			}
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i++
			for j := range parts {
				if !parts[j].done {
					parts[j].prefix += "%"
				}
			}
			continue
		}
		var vals []Shape
		if i+1 < len(f) && arg < len(args) {
			vals = m.verbShapes(f[i+1], args[arg], seen, depth)
		}
		arg++
		i++
		var next []partial
		for _, p := range parts {
			if p.done {
				next = append(next, p)
				continue
			}
			if len(vals) == 0 {
				next = append(next, partial{prefix: p.prefix, done: true})
				continue
			}
			for _, v := range vals {
				next = append(next, partial{prefix: p.prefix + v.Prefix, done: !v.Whole})
			}
		}
		if len(next) > maxShapes {
			// Too many to follow: what is common to all is the part
			// before this verb.
			next = nil
			for _, p := range parts {
				next = append(next, partial{prefix: p.prefix, done: true})
			}
		}
		parts = next
	}
	whole := format.Whole && arg == len(args) // extra arguments add %!(EXTRA ...)
	out := make([]Shape, 0, len(parts))
	for _, p := range parts {
		out = append(out, Shape{Prefix: p.prefix, Whole: whole && !p.done})
	}
	return out
}

// verbShapes returns the shapes of what the verb prints for an argument:
// for %s and %v, a plain string's shapes; for %d and %v, an integer
// constant in decimal. Nil when that is not proven (a type with a String
// method of its own, a value out of sight, another verb).
func (m *Model) verbShapes(verb byte, a ast.Expr, seen map[*types.Var]bool, depth int) []Shape {
	t, _ := m.info.TypeOf(a).(*types.Basic)
	if t == nil {
		return nil // a named type may print itself (a String method)
	}
	switch {
	case t.Info()&types.IsString != 0 && (verb == 's' || verb == 'v'):
		s, ok := m.shapes(a, seen, depth+1)
		if !ok {
			return nil
		}
		return s
	case t.Info()&types.IsInteger != 0 && (verb == 'd' || verb == 'v'):
		tv, ok := m.info.Types[a]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return nil
		}
		return []Shape{{Prefix: strings.TrimPrefix(tv.Value.ExactString(), "+"), Whole: true}}
	}
	return nil
}
