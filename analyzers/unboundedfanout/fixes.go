package unboundedfanout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// fixes returns the suggested fixes of a launch.
func (c *checker) fixes(l *launch) []analysis.SuggestedFix {
	if l.spec != nil {
		switch l.spec.Fix {
		case knowledge.FixSetLimit:
			return c.setLimitFix(l)
		case knowledge.FixRuntimeGroup:
			return c.groupFix(l)
		}
		return nil
	}
	return c.groupFix(l)
}

// setLimitFix inserts g.SetLimit(N) right after the statement that creates
// the local group g (var g errgroup.Group, g, ctx := errgroup.WithContext(ctx),
// g := new(errgroup.Group), g := &errgroup.Group{}).
func (c *checker) setLimitFix(l *launch) []analysis.SuggestedFix {
	info := c.pass.TypesInfo
	id, ok := ast.Unparen(l.group).(*ast.Ident)
	if !ok || l.where.Decl == nil {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !c.flow.Visible(v) || isGlobal(v) {
		return nil
	}
	if _, _, isParam := c.flow.IsParam(v); isParam {
		return nil
	}
	defs := c.flow.DefsOf(v)
	if len(defs) != 1 {
		return nil
	}
	if d := defs[0]; !d.Zero && (d.Rhs == nil || !c.freshGroup(d.Rhs)) {
		return nil
	}
	stmt := defStmt(info, l.where.Decl.Body, v)
	if stmt == nil || c.nestedLaunch(l.where.Decl.Body, v) {
		return nil
	}
	indent := analysisutil.Indent(c.pass, stmt.Pos())
	text := "\n" + indent + v.Name() + "." + l.spec.Limit + "(" + strconv.Itoa(c.cfg.FanoutFixLimit) + ")"
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Limit %s to %d goroutines", v.Name(), c.cfg.FanoutFixLimit),
		TextEdits: []analysis.TextEdit{{Pos: stmt.End(), End: stmt.End(), NewText: []byte(text)}},
	}}
}

// defStmt returns the statement of body, directly in a statement list, that
// declares v.
func defStmt(info *types.Info, body *ast.BlockStmt, v *types.Var) ast.Stmt {
	var out ast.Stmt
	inList := func(list []ast.Stmt) {
		for _, s := range list {
			if declares(info, s, v) {
				out = s
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			inList(n.List)
		case *ast.CaseClause:
			inList(n.Body)
		case *ast.CommClause:
			inList(n.Body)
		}
		return true
	})
	return out
}

func declares(info *types.Info, s ast.Stmt, v *types.Var) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return false
		}
		for _, lhs := range s.Lhs {
			if id, ok := lhs.(*ast.Ident); ok && info.Defs[id] == v {
				return true
			}
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		for _, spec := range gd.Specs {
			if vs, ok := spec.(*ast.ValueSpec); ok {
				for _, name := range vs.Names {
					if info.Defs[name] == v {
						return true
					}
				}
			}
		}
	}
	return false
}

// nestedLaunch reports whether a goroutine of group v launches on v itself:
// with a limit, that can deadlock.
func (c *checker) nestedLaunch(body *ast.BlockStmt, v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, recv := c.flow.Callee(call)
		if fn == nil || recv == nil || rootVar(info, recv) != v {
			return true
		}
		if _, ok := c.table.Launchers[analysisutil.Key(fn)]; !ok {
			return true
		}
		for _, a := range call.Args {
			ast.Inspect(a, func(m ast.Node) bool {
				if inner, ok := m.(*ast.CallExpr); ok {
					if fn2, recv2 := c.flow.Callee(inner); fn2 != nil && recv2 != nil && rootVar(info, recv2) == v {
						if _, ok := c.table.Launchers[analysisutil.Key(fn2)]; ok {
							found = true
						}
					}
				}
				return !found
			})
		}
		return true
	})
	return found
}

// groupFix replaces a local sync.WaitGroup with the runtime package's
// bounded group:
//
//	var wg sync.WaitGroup              g := resil.NewGroup(ctx, 16)
//	for _, x := range xs {             for _, x := range xs {
//		wg.Add(1)                          g.Go(func(ctx context.Context) error {
//		go func() {                            work(x)
//			defer wg.Done()                    return nil
//			work(x)                        })
//		}()                            }
//	}                                  g.Wait()
//	wg.Wait()
//
// (or wg.Go(func() { work(x) }) likewise). Only when the WaitGroup is
// declared in this function and used for nothing else, the goroutine is a
// function literal without parameters, and its Done is deferred first.
func (c *checker) groupFix(l *launch) []analysis.SuggestedFix {
	info := c.pass.TypesInfo
	lit, ok := ast.Unparen(l.fn).(*ast.FuncLit)
	if !ok || l.where.Decl == nil || len(l.args) > 0 || lit.Type.Params.NumFields() > 0 || lit.Type.Results.NumFields() > 0 {
		return nil
	}
	// The WaitGroup: the launcher's receiver, or the one Done is deferred on.
	var wg *types.Var
	var doneStmt ast.Stmt
	if l.spec != nil {
		wg = rootVar(info, l.group)
	} else if len(lit.Body.List) > 0 {
		if ds, ok := lit.Body.List[0].(*ast.DeferStmt); ok {
			if fn, recv := c.flow.Callee(ds.Call); fn != nil && recv != nil && analysisutil.Key(fn) == "(*sync.WaitGroup).Done" {
				wg, doneStmt = rootVar(info, recv), ds
			}
		}
	}
	if wg == nil || analysisutil.TypeKey(wg.Type()) != "sync.WaitGroup" || isGlobal(wg) || wg.IsField() {
		return nil
	}
	if _, _, isParam := c.flow.IsParam(wg); isParam || !c.flow.Visible(wg) {
		return nil
	}
	if defs := c.flow.DefsOf(wg); len(defs) != 1 || !defs[0].Zero {
		return nil
	}
	body := l.where.Decl.Body
	decl := defStmt(info, body, wg)
	if decl == nil || len(decl.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs) != 1 || len(decl.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Names) != 1 {
		return nil
	}
	// Every use of the WaitGroup: Add statements, the deferred Done, Wait
	// calls, the launcher itself.
	var adds, waits []*ast.CallExpr
	var addStmts []ast.Stmt
	ok = true
	var lastStmt ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if s, isStmt := n.(ast.Stmt); isStmt {
			lastStmt = s
		}
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != wg {
			return true
		}
		call := c.methodCallOn(body, id)
		if call == nil {
			ok = false
			return false
		}
		switch fn, _ := c.flow.Callee(call); analysisutil.Key(fn) {
		case "(*sync.WaitGroup).Add":
			es, isExpr := lastStmt.(*ast.ExprStmt)
			if !isExpr || es.X != ast.Expr(call) {
				ok = false
			}
			adds, addStmts = append(adds, call), append(addStmts, es)
		case "(*sync.WaitGroup).Wait":
			waits = append(waits, call)
		case "(*sync.WaitGroup).Done":
			if doneStmt == nil || call != doneStmt.(*ast.DeferStmt).Call {
				ok = false
			}
		case "(*sync.WaitGroup).Go":
			if call != l.call {
				ok = false
			}
		default:
			ok = false
		}
		return true
	})
	if !ok || len(waits) == 0 || (l.spec == nil && len(adds) != 1) || (l.spec != nil && len(adds) != 0) {
		return nil
	}
	// The Add: wg.Add(1) in the iteration before the launch, or one Add
	// before the loop.
	if len(adds) == 1 {
		inLoop := adds[0].Pos() >= l.loops[0].Pos() && adds[0].End() <= l.loops[0].End()
		if inLoop && !isOne(info, adds[0].Args) {
			return nil
		}
		outer := l.loops[len(l.loops)-1]
		if !inLoop && adds[0].Pos() > outer.Pos() {
			return nil
		}
		if !inLoop && len(l.loops) > 1 {
			return nil
		}
	}
	// A body that returns values or refers to a non-context ctx cannot be
	// moved into func(ctx context.Context) error.
	param := "ctx"
	if obj := lookupUse(info, lit.Body, "ctx"); obj != nil && !analysisutil.IsContext(obj.Type()) {
		param = "_"
	}
	file := analysisutil.FileOf(c.pass, l.node.Pos())
	if file == nil {
		return nil
	}
	rt := c.table.Runtime
	resil, imp1, ok1 := analysisutil.PackageName(c.pass, file, decl.Pos(), rt.Path, rt.Name)
	ctxPkg, imp2, ok2 := analysisutil.PackageName(c.pass, file, l.node.Pos(), "context", "context")
	if !ok1 || !ok2 {
		return nil
	}
	// The group's context: the context the goroutines use, when they use
	// one of the function's (a budget derived from the request, which the
	// group's own ctx parameter then carries on); else the caller's.
	ctxExpr, used, ok := c.bodyContext(lit, decl.Pos())
	if !ok {
		return nil
	}
	if !used {
		if caller := c.flow.CallerOf(l.stack); caller != nil {
			ctxExpr = caller.Expr(c.pass.Pkg, decl.Pos())
		}
	}
	if ctxExpr == "" {
		ctxExpr = ctxPkg + ".Background()"
	}
	name := c.names.Free(c.pass.Pkg, decl.Pos(), body, "g")
	limit := strconv.Itoa(c.cfg.FanoutFixLimit)

	var edits []analysis.TextEdit
	edits = append(edits, analysis.TextEdit{Pos: decl.Pos(), End: decl.End(), NewText: []byte(name + " := " + resil + "." + rt.Func + "(" + ctxExpr + ", " + limit + ")")})
	for _, s := range addStmts {
		edits = append(edits, c.deleteLine(s))
	}
	if doneStmt != nil {
		edits = append(edits, c.deleteLine(doneStmt))
	}
	for _, w := range waits {
		sel, ok := ast.Unparen(w.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		edits = append(edits, analysis.TextEdit{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(name)})
	}
	header := "func(" + param + " " + ctxPkg + ".Context) error {"
	indent := analysisutil.Indent(c.pass, l.node.Pos())
	if l.spec == nil {
		gs := l.node.(*ast.GoStmt)
		edits = append(edits,
			analysis.TextEdit{Pos: gs.Pos(), End: lit.Body.Lbrace + 1, NewText: []byte(name + ".Go(" + header)},
			analysis.TextEdit{Pos: lit.Body.Rbrace + 1, End: gs.Call.End(), NewText: []byte(")")})
	} else {
		sel, ok := ast.Unparen(l.call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		edits = append(edits,
			analysis.TextEdit{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(name)},
			analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Body.Lbrace + 1, NewText: []byte(header)})
	}
	if !endsInReturn(lit.Body) {
		edits = append(edits, analysis.TextEdit{Pos: lit.Body.Rbrace, End: lit.Body.Rbrace, NewText: []byte("\treturn nil\n" + indent)})
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			edits = append(edits, analysis.TextEdit{Pos: n.End(), End: n.End(), NewText: []byte(" nil")})
		}
		return true
	})
	edits = append(edits, imp1...)
	edits = append(edits, imp2...)
	switch syncUses(info, file) {
	case onlyThis:
		// The WaitGroup's declaration was the file's only use of sync.
		edits = append(edits, analysisutil.DeleteImport(c.pass.Fset, file, "sync")...)
	case onlyWaitGroups:
		// Other local WaitGroups are the only other uses: whether sync stays
		// used depends on which fixes are applied. No fix.
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Run the goroutines in %s.%s(%s, %s)", resil, rt.Func, ctxExpr, limit),
		TextEdits: edits,
	}}
}

// methodCallOn returns the call whose receiver is id (id.M(...)).
func (c *checker) methodCallOn(body *ast.BlockStmt, id *ast.Ident) *ast.CallExpr {
	var out *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if out != nil {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && ast.Unparen(sel.X) == ast.Expr(id) {
				out = call
			}
		}
		return true
	})
	return out
}

func isOne(info *types.Info, args []ast.Expr) bool {
	if len(args) != 1 {
		return false
	}
	n, ok := analysisutil.ConstInt(info, args[0])
	return ok && n == 1
}

// lookupUse returns the object an identifier named name refers to in n.
// bodyContext returns the name of the context variable declared outside
// lit that lit's body uses, if any (used). ok is false when the body uses
// several, or one the group, made at pos, could not be built on (declared
// after pos, or shadowed there): no fix then, since the group's ctx
// parameter would hide the budget the goroutines run under.
func (c *checker) bodyContext(lit *ast.FuncLit, pos token.Pos) (name string, used, ok bool) {
	info := c.pass.TypesInfo
	var v *types.Var
	ok = true
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		u, isVar := info.Uses[id].(*types.Var)
		if !isVar || u.IsField() || !analysisutil.IsContext(u.Type()) || (u.Pos() >= lit.Pos() && u.Pos() < lit.End()) {
			return true
		}
		if v != nil && v != u {
			ok = false
		}
		v = u
		return true
	})
	if !ok || v == nil {
		return "", false, ok
	}
	if v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return "", false, false // a package variable: not a budget of this call
	}
	if v.Pos() >= pos {
		return "", false, false
	}
	if !analysisutil.VisibleAt(c.pass.Pkg, pos, v) {
		return "", false, false
	}
	return v.Name(), true, true
}

func lookupUse(info *types.Info, n ast.Node, name string) types.Object {
	var out types.Object
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && out == nil {
			out = info.Uses[id]
		}
		return out == nil
	})
	return out
}

func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// deleteLine returns the edit that deletes a statement that stands on its
// own line, with its line.
func (c *checker) deleteLine(s ast.Stmt) analysis.TextEdit {
	tf := c.pass.Fset.File(s.Pos())
	start := tf.LineStart(tf.Line(s.Pos()))
	end := s.End()
	if line := tf.Line(end); line < tf.LineCount() {
		end = tf.LineStart(line + 1)
	}
	return analysis.TextEdit{Pos: start, End: end}
}

type syncUse uint8

const (
	otherUses      syncUse = iota // sync stays used whatever is fixed
	onlyThis                      // this declaration is the only use
	onlyWaitGroups                // the other uses declare local WaitGroups
)

// syncUses classifies the file's uses of package sync besides the
// declaration being rewritten (a local var x sync.WaitGroup).
func syncUses(info *types.Info, file *ast.File) syncUse {
	total := analysisutil.Uses(info, file, "sync")
	decls := 0
	ast.Inspect(file, func(n ast.Node) bool {
		ds, ok := n.(*ast.DeclStmt)
		if !ok {
			return true
		}
		if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && vs.Type != nil && len(vs.Values) == 0 {
					if analysisutil.TypeKey(info.TypeOf(vs.Type)) == "sync.WaitGroup" {
						if sel, ok := vs.Type.(*ast.SelectorExpr); ok {
							if pn, ok := info.Uses[sel.X.(*ast.Ident)].(*types.PkgName); ok && pn.Imported().Path() == "sync" {
								decls++
							}
						}
					}
				}
			}
		}
		return false
	})
	switch {
	case total <= 1:
		return onlyThis
	case total == decls:
		return onlyWaitGroups
	}
	return otherUses
}
