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
	launchpass "github.com/resilint/resilint/passes/launch"
)

// A pending finding: the fixes of a package's findings are chosen
// together, since whether a WaitGroup fix may delete the file's import of
// sync depends on which other WaitGroups of the file are fixed.
type pending struct {
	l    *launch
	diag analysis.Diagnostic
	fix  *analysis.SuggestedFix
	// wgDecl is the WaitGroup declaration a group fix removes.
	wgDecl ast.Stmt
}

func (c *checker) emit(l *launch, d analysis.Diagnostic) {
	c.pending = append(c.pending, pending{l: l, diag: d})
}

// flush chooses the fixes of the pending findings and reports them. A
// file whose only uses of sync are WaitGroup declarations that group fixes
// remove loses its import of sync with each of those fixes (one edit,
// applied once).
func (c *checker) flush() {
	removed := map[*ast.File]int{}
	for i := range c.pending {
		p := &c.pending[i]
		p.fix, p.wgDecl = c.fixes(p.l)
		if p.wgDecl != nil {
			removed[analysisutil.FileOf(c.pass, p.wgDecl.Pos())]++
		}
	}
	for i := range c.pending {
		p := &c.pending[i]
		if p.wgDecl != nil {
			file := analysisutil.FileOf(c.pass, p.wgDecl.Pos())
			if analysisutil.Uses(c.pass.TypesInfo, file, "sync") == removed[file] {
				if soleImport(file, "sync") {
					// Deleting it deletes the import declaration the fix
					// adds context and resil to: bound with a semaphore.
					p.fix = c.semaphoreFix(p.l)
				} else {
					p.fix.TextEdits = analysisutil.SortEdits(append(p.fix.TextEdits, analysisutil.DeleteImport(c.pass.Fset, file, "sync")...))
				}
			}
		}
		if p.fix != nil {
			p.diag.SuggestedFixes = []analysis.SuggestedFix{*p.fix}
		}
		c.rep.Report(p.diag)
	}
	c.pending = nil
}

// contextOnlyInRoots reports whether the file imports the context package
// and uses it only in Background() and TODO() calls (roots of the table).
func (c *checker) contextOnlyInRoots(file *ast.File) bool {
	info := c.pass.TypesInfo
	contexts := c.cfg.Table().Contexts
	uses, roots := 0, 0
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && len(n.Args) == 0 {
				if pn, ok := info.Uses[identOf(sel.X)].(*types.PkgName); ok && pn.Imported().Path() == "context" {
					if fn, _ := analysisutil.Callee(info, n, nil); fn != nil {
						if row, ok := contexts[analysisutil.Key(fn)]; ok && row.Effect == knowledge.Root {
							roots++
						}
					}
				}
			}
		case *ast.Ident:
			if pn, ok := info.Uses[n].(*types.PkgName); ok && pn.Imported().Path() == "context" {
				uses++
			}
		}
		return true
	})
	return uses > 0 && uses == roots
}

// soleImport reports whether path is the only import of its declaration.
func soleImport(file *ast.File, path string) bool {
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			if p, err := strconv.Unquote(s.(*ast.ImportSpec).Path.Value); err == nil && p == path {
				return len(gd.Specs) == 1
			}
		}
	}
	return false
}

// fixes returns the suggested fix of a launch: a limit on its group
// (SetLimit), the runtime package's bounded group in place of a WaitGroup
// (where the module requires resil), or a channel semaphore. None when a
// goroutine could wait for something the function does only after the
// loop: the limit would deadlock (see blockFree).
// The second result is the WaitGroup declaration a group fix removes.
func (c *checker) fixes(l *launch) (*analysis.SuggestedFix, ast.Stmt) {
	free, sizing := c.blockFree(l)
	if !free || c.lockedLaunch(l) || c.waitsOnCond(l) {
		return nil, nil
	}
	var fix *analysis.SuggestedFix
	var wgDecl ast.Stmt
	switch {
	case l.spec != nil && l.spec.Fix == knowledge.FixSetLimit:
		if c.triesGroup(l) {
			// A limit would make the group's TryGo refuse its tasks.
			return nil, nil
		}
		if fix = c.setLimitFix(l); fix == nil {
			fix = c.semaphoreFix(l)
		}
	case l.spec == nil || l.spec.Fix == knowledge.FixRuntimeGroup:
		if fix, wgDecl = c.groupFix(l); fix == nil {
			fix = c.semaphoreFix(l)
		}
	}
	if fix == nil {
		return nil, nil
	}
	if len(sizing) > 0 {
		fix.TextEdits = append(fix.TextEdits, sizing...)
		fix.Message += ", and give the result channel room for every item (so no goroutine waits for the drain after the loop)"
	}
	fix.Message += c.nestNote(l)
	fix.TextEdits = analysisutil.SortEdits(fix.TextEdits)
	return fix, wgDecl
}

// setLimitFix inserts g.SetLimit(N) right after the statement that creates
// the local group g (var g errgroup.Group, g, ctx := errgroup.WithContext(ctx),
// g := new(errgroup.Group), g := &errgroup.Group{}).
func (c *checker) setLimitFix(l *launch) *analysis.SuggestedFix {
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
	// The group's package as the module loads it must have the method (an
	// old golang.org/x/sync has no SetLimit).
	if m, _, _ := types.LookupFieldOrMethod(v.Type(), true, v.Pkg(), l.spec.Limit); m == nil {
		return nil
	} else if _, isFunc := m.(*types.Func); !isFunc {
		return nil
	}
	defs := c.flow.DefsOf(v)
	if len(defs) != 1 {
		return nil
	}
	if d := defs[0]; !d.Zero && (d.Rhs == nil || !c.freshGroup(d.Rhs)) {
		return nil
	}
	stmt, _ := defStmt(info, l.where.Decl.Body, v)
	if stmt == nil || c.nestedLaunch(l.where.Decl.Body, v) {
		return nil
	}
	indent := analysisutil.Indent(c.pass, stmt.Pos())
	text := "\n" + indent + v.Name() + "." + l.spec.Limit + "(" + strconv.Itoa(c.cfg.FanoutFixLimit) + ")"
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Limit %s to %d goroutines at once", v.Name(), c.cfg.FanoutFixLimit),
		TextEdits: []analysis.TextEdit{{Pos: stmt.End(), End: stmt.End(), NewText: []byte(text)}},
	}
}

// defStmt returns the statement of body, directly in a statement list, that
// declares v, and that list.
func defStmt(info *types.Info, body *ast.BlockStmt, v *types.Var) (ast.Stmt, []ast.Stmt) {
	var out ast.Stmt
	var outList []ast.Stmt
	inList := func(list []ast.Stmt) {
		for _, s := range list {
			if declares(info, s, v) {
				out, outList = s, list
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
	return out, outList
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
// bounded group, where the module requires it:
//
//	var wg sync.WaitGroup       g := resil.NewGroup(context.Background(), 16)
//	for _, x := range xs {      for _, x := range xs {
//		wg.Add(1)                   g.Go(func(context.Context) (_ error) {
//		go func() {                     work(x)
//			defer wg.Done()             return nil
//			work(x)                 })
//		}()                     }
//	}                           g.Wait()
//	wg.Wait()
//
// (or wg.Go(func() { work(x) }) likewise). Only when the WaitGroup is
// declared in this function and used for nothing else, the goroutine is a
// function literal without parameters, and its Done is deferred first.
//
// The group's context is Background: it is never done, so Go runs every
// function as the go statements did, whatever happens to the caller's
// context (a group on a cancelled ctx would skip them, and the WaitGroup's
// caller never looked at an error), and Wait returns nil as wg.Wait
// returned nothing. The functions ignore the group's context and keep the
// one they used. The result is named _ so that the body's return
// statements (and those other fixes add to it) stay valid as they are.
func (c *checker) groupFix(l *launch) (*analysis.SuggestedFix, ast.Stmt) {
	info := c.pass.TypesInfo
	lit, ok := ast.Unparen(l.fn).(*ast.FuncLit)
	if !ok || l.where.Decl == nil || len(l.args) > 0 || lit.Type.Params.NumFields() > 0 || lit.Type.Results.NumFields() > 0 {
		return nil, nil
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
		return nil, nil
	}
	if _, _, isParam := c.flow.IsParam(wg); isParam || !c.flow.Visible(wg) {
		return nil, nil
	}
	if defs := c.flow.DefsOf(wg); len(defs) != 1 || !defs[0].Zero {
		return nil, nil
	}
	body := l.where.Decl.Body
	decl, declList := defStmt(info, body, wg)
	if decl == nil || len(decl.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs) != 1 || len(decl.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Names) != 1 {
		return nil, nil
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
		return nil, nil
	}
	// The Add: wg.Add(1) in the iteration before the launch, or one Add
	// before the loop.
	if len(adds) == 1 {
		inLoop := adds[0].Pos() >= l.loops[0].Pos() && adds[0].End() <= l.loops[0].End()
		if inLoop && !isOne(info, adds[0].Args) {
			return nil, nil
		}
		outer := l.loops[len(l.loops)-1]
		if !inLoop && adds[0].Pos() > outer.Pos() {
			return nil, nil
		}
		if !inLoop && len(l.loops) > 1 {
			return nil, nil
		}
	}
	if len(waits) != 1 || !waitsOnce(declList, decl, l.loops[len(l.loops)-1], waits[0]) {
		return nil, nil
	}
	file := analysisutil.FileOf(c.pass, l.node.Pos())
	if file == nil {
		return nil, nil
	}
	rt := c.table.Runtime
	if !analysisutil.Declares(c.pass, rt.Path, rt.Func, "Group.Go", "Group.Wait") {
		return nil, nil // the module does not require resil (or its resil has no group)
	}
	if c.contextOnlyInRoots(file) {
		// detachedctx may replace those calls and delete the import this
		// fix would use: bound with a semaphore, which needs no context.
		return nil, nil
	}
	resil, imp1, ok1 := analysisutil.PackageName(c.pass, file, decl.Pos(), rt.Path, rt.Name)
	ctxPkg, imp2, ok2 := analysisutil.PackageName(c.pass, file, l.node.Pos(), "context", "context")
	if !ok1 || !ok2 {
		return nil, nil
	}
	if _, _, ok := analysisutil.PackageName(c.pass, file, decl.Pos(), "context", "context"); !ok {
		return nil, nil
	}
	name := c.names.Free(c.pass.Pkg, decl.Pos(), body, "g")
	limit := strconv.Itoa(c.cfg.FanoutFixLimit)
	ctxExpr := ctxPkg + ".Background()"

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
			return nil, nil
		}
		edits = append(edits, analysis.TextEdit{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(name)})
	}
	header := "func(" + ctxPkg + ".Context) (_ error) {"
	indent := analysisutil.Indent(c.pass, l.node.Pos())
	if l.spec == nil {
		gs := l.node.(*ast.GoStmt)
		edits = append(edits,
			analysis.TextEdit{Pos: gs.Pos(), End: lit.Body.Lbrace + 1, NewText: []byte(name + ".Go(" + header)},
			analysis.TextEdit{Pos: lit.Body.Rbrace + 1, End: gs.Call.End(), NewText: []byte(")")})
	} else {
		sel, ok := ast.Unparen(l.call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, nil
		}
		edits = append(edits,
			analysis.TextEdit{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(name)},
			analysis.TextEdit{Pos: lit.Type.Pos(), End: lit.Body.Lbrace + 1, NewText: []byte(header)})
	}
	if !analysisutil.Terminates(c.pass.TypesInfo, lit.Body) {
		edits = append(edits, analysis.TextEdit{Pos: lit.Body.Rbrace, End: lit.Body.Rbrace, NewText: []byte("\treturn nil\n" + indent)})
	}
	edits = append(edits, imp1...)
	edits = append(edits, imp2...)
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Run the goroutines in %s.%s(%s, %s): at most %s at once, every one still run (its context is never done)", resil, rt.Func, ctxExpr, limit, limit),
		TextEdits: edits,
	}, decl
}

// semaphoreFix bounds the goroutines with a channel semaphore, which needs
// nothing the module does not have:
//
//	sem := make(chan struct{}, 16)
//	for _, x := range xs {
//		sem <- struct{}{}
//		go func() {
//			defer func() { <-sem }()
//			work(x)
//		}()
//	}
//
// Only for a goroutine that runs a function literal, launched by a
// statement of its own, in loops of which the outermost is a statement of
// its own.
func (c *checker) semaphoreFix(l *launch) *analysis.SuggestedFix {
	lit, ok := ast.Unparen(l.fn).(*ast.FuncLit)
	if !ok || l.where.Body == nil {
		return nil
	}
	// The launching statement.
	var launchStmt ast.Stmt
	switch n := l.node.(type) {
	case *ast.GoStmt:
		launchStmt = n
	case *ast.CallExpr:
		if es, ok := l.where.Stmt.(*ast.ExprStmt); ok && es.X == ast.Expr(n) {
			launchStmt = es
		}
	}
	if launchStmt == nil || l.where.Stmt != launchStmt {
		return nil
	}
	// The outermost loop, or its label, as a statement of a list.
	outer := ast.Node(l.loops[len(l.loops)-1])
	var anchor ast.Stmt
	for i := len(l.stack) - 1; i > 0; i-- {
		if l.stack[i] != outer {
			continue
		}
		if ls, ok := l.stack[i-1].(*ast.LabeledStmt); ok && i > 1 {
			outer = ls
			i--
		}
		switch p := l.stack[i-1].(type) {
		case *ast.BlockStmt:
			if inStmts(p.List, outer) {
				anchor = outer.(ast.Stmt)
			}
		case *ast.CaseClause:
			if inStmts(p.Body, outer) {
				anchor = outer.(ast.Stmt)
			}
		case *ast.CommClause:
			if inStmts(p.Body, outer) {
				anchor = outer.(ast.Stmt)
			}
		}
		break
	}
	if anchor == nil {
		return nil
	}
	name := c.names.Free(c.pass.Pkg, anchor.Pos(), l.where.Body, "sem")
	limit := strconv.Itoa(c.cfg.FanoutFixLimit)
	outerIndent := analysisutil.Indent(c.pass, anchor.Pos())
	launchIndent := analysisutil.Indent(c.pass, launchStmt.Pos())
	bodyIndent := launchIndent + "\t"
	if len(lit.Body.List) > 0 {
		bodyIndent = analysisutil.Indent(c.pass, lit.Body.List[0].Pos())
	}
	edits := []analysis.TextEdit{
		{Pos: anchor.Pos(), End: anchor.Pos(), NewText: []byte(name + " := make(chan struct{}, " + limit + ")\n" + outerIndent)},
		{Pos: launchStmt.Pos(), End: launchStmt.Pos(), NewText: []byte(name + " <- struct{}{}\n" + launchIndent)},
		c.firstInBody(lit.Body, bodyIndent, "defer func() { <-"+name+" }()"),
	}
	msg := fmt.Sprintf("Limit the goroutines to %s at once with a channel semaphore (%s)", limit, name)
	if !analysisutil.Resolves(c.pass, c.table.Runtime.Path) {
		msg += fmt.Sprintf("; %s.%s does it with cancellation, once the module requires %s", c.table.Runtime.Name, c.table.Runtime.Func, c.table.Runtime.Path)
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// firstInBody returns the edit that makes stmt the first statement of
// body: on a line of its own after the brace's line (and after a comment
// that ends it), or before the first statement when it shares the brace's
// line.
func (c *checker) firstInBody(body *ast.BlockStmt, indent, stmt string) analysis.TextEdit {
	tf := c.pass.Fset.File(body.Lbrace)
	line := tf.Line(body.Lbrace)
	next := body.Rbrace
	if len(body.List) > 0 {
		next = body.List[0].Pos()
	}
	if tf.Line(next) == line || line >= tf.LineCount() {
		return analysis.TextEdit{Pos: body.Lbrace + 1, End: body.Lbrace + 1, NewText: []byte(" " + stmt + ";")}
	}
	end := tf.LineStart(line+1) - 1
	return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n" + indent + stmt)}
}

func inStmts(list []ast.Stmt, n ast.Node) bool {
	for _, s := range list {
		if ast.Node(s) == n {
			return true
		}
	}
	return false
}

// nestNote states the bound of a nest of fan-outs: a limited group whose
// goroutines start goroutines per item again, or one inside such a
// goroutine, multiplies the limits.
func (c *checker) nestNote(l *launch) string {
	n := c.cfg.FanoutFixLimit
	if c.insideFanout(l) {
		return fmt.Sprintf(" (per goroutine of the enclosing loop's launches: with those limited to %d too, the nest runs up to %d×%d = %d at once)", n, n, n, n*n)
	}
	if lit, ok := ast.Unparen(l.fn).(*ast.FuncLit); ok && c.launchesInLoop(lit.Body) {
		return fmt.Sprintf(" (each of them starts goroutines in a loop of its own: with those limited to %d too, the nest runs up to %d×%d = %d at once)", n, n, n, n*n)
	}
	return ""
}

// insideFanout reports whether l runs in a goroutine started in a loop.
func (c *checker) insideFanout(l *launch) bool {
	for i := len(l.stack) - 2; i > 0; i-- {
		lit, ok := l.stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := l.stack[i-1].(*ast.CallExpr)
		if !ok {
			return false
		}
		started := false
		if gs, ok := l.stack[max(i-2, 0)].(*ast.GoStmt); ok && gs.Call == call && call.Fun == ast.Expr(lit) {
			started = true
		} else if fn, _ := c.flow.Callee(call); fn != nil {
			_, started = c.table.Launchers[analysisutil.Key(fn)]
		}
		return started && len(launchpass.LoopsOf(l.stack[:i+1])) > 0
	}
	return false
}

// launchesInLoop reports whether body starts goroutines in a loop of its
// own.
func (c *checker) launchesInLoop(body *ast.BlockStmt) bool {
	found := false
	var depth int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			depth++
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			depth--
			return false
		case *ast.GoStmt:
			found = depth > 0
		case *ast.CallExpr:
			if fn, _ := c.flow.Callee(n); fn != nil && depth > 0 {
				_, found = c.table.Launchers[analysisutil.Key(fn)]
			}
		}
		return !found
	}
	ast.Inspect(body, visit)
	return found
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

// waitsOnce reports whether a group's one round is the WaitGroup's only
// use: its declaration, the outermost launch loop and the statement of
// the Wait call are statements of one block (list, the declaration's) in
// that order, and nothing leaves the block between the loop's start and
// the Wait (a return, a goto, a branch to a label outside). A resil.Group
// runs no goroutine given to it after Wait (a WaitGroup waited in an outer
// loop, batch by batch, is reused), and one whose Wait is never reached
// keeps its workers blocked (a return from inside the loop).
func waitsOnce(list []ast.Stmt, decl, loop ast.Stmt, wait *ast.CallExpr) bool {
	di, li, wi := -1, -1, -1
	for i, st := range list {
		switch {
		case st == decl:
			di = i
		case st == loop:
			li = i
		case st.Pos() <= wait.Pos() && wait.End() <= st.End() && waitStmt(st, wait):
			wi = i
		}
	}
	if di < 0 || li <= di || wi <= li {
		return false
	}
	for _, st := range list[li:wi] {
		if leaves(st) {
			return false
		}
	}
	return true
}

// waitStmt reports whether st is the call of Wait, or starts (go, defer)
// a function literal of which the call is a statement of its own
// (go func() { wg.Wait(); close(results) }()).
func waitStmt(st ast.Stmt, wait *ast.CallExpr) bool {
	isWait := func(s ast.Stmt) bool {
		es, ok := s.(*ast.ExprStmt)
		return ok && ast.Unparen(es.X) == ast.Expr(wait)
	}
	var call *ast.CallExpr
	switch st := st.(type) {
	case *ast.GoStmt:
		call = st.Call
	case *ast.DeferStmt:
		call = st.Call
	default:
		return isWait(st)
	}
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	for _, s := range lit.Body.List {
		if isWait(s) {
			return true
		}
	}
	return false
}

// leaves reports whether a statement may leave the block it is in other
// than by running to its end: a return, a goto, or a labelled break or
// continue (an unlabelled one stays in the statement's own loop or
// switch, which the block holds). Function literals are not walked.
func leaves(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if n.Tok == token.GOTO || n.Label != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// lockedLaunch reports whether a loop around the launch locks a sync mutex
// outside the goroutines: a launch that waits for a free slot while the
// lock is held deadlocks with workers that take it.
func (c *checker) lockedLaunch(l *launch) bool {
	lit, _ := ast.Unparen(l.fn).(*ast.FuncLit)
	found := false
	for _, loop := range l.loops {
		ast.Inspect(loop, func(n ast.Node) bool {
			if found || n == nil || n == ast.Node(lit) {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok && analysisutil.SyncMethod(c.pass.TypesInfo, call, "Lock", "RLock") {
				found = true
			}
			return true
		})
	}
	return found
}

// waitsOnCond reports whether the goroutines wait on a sync.Cond, which
// something after the loop may be the one to signal: with a limit, the
// launches that would signal never come.
func (c *checker) waitsOnCond(l *launch) bool {
	found := false
	ast.Inspect(l.fn, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found && analysisutil.SyncMethod(c.pass.TypesInfo, call, "Wait") {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && analysisutil.TypeKey(c.pass.TypesInfo.TypeOf(sel.X)) == "sync.Cond" {
				found = true
			}
		}
		return !found
	})
	return found
}

// triesGroup reports whether the function calls TryGo on the launch's
// group: after SetLimit, TryGo refuses a task while the limit is reached,
// and the task is dropped.
func (c *checker) triesGroup(l *launch) bool {
	id, ok := ast.Unparen(l.group).(*ast.Ident)
	if !ok || l.where.Body == nil {
		return false
	}
	v := c.pass.TypesInfo.Uses[id]
	found := false
	ast.Inspect(l.where.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "TryGo" {
			if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && c.pass.TypesInfo.Uses[x] == v {
				found = true
			}
		}
		return true
	})
	return found
}
