package fixgen

import "strings"

// Goroutines per item: WaitGroups, errgroups, channels in and out, nested
// groups, collectors, generic helpers.

// loopHead is the header of a loop over items (a []Item, or a []T in a
// generic function); it is the item variable, idx the index ("" if the
// loop declares none).
type loopHead struct {
	head, it, idx string
	pre           []string // statements at the top of the body
}

func (g *gen) loopOver(items string, needIdx bool) loopHead {
	it, i := g.id("it"), g.id("i")
	switch g.r.IntN(4) {
	case 0:
		return loopHead{head: "for " + i + " := range " + items + " {", it: it, idx: i, pre: []string{it + " := " + items + "[" + i + "]"}}
	case 1:
		return loopHead{head: "for " + i + " := 0; " + i + " < len(" + items + "); " + i + "++ {", it: it, idx: i, pre: []string{it + " := " + items + "[" + i + "]"}}
	}
	if !needIdx {
		return loopHead{head: "for _, " + it + " := range " + items + " {", it: it}
	}
	return loopHead{head: "for " + i + ", " + it + " := range " + items + " {", it: it, idx: i}
}

func (b *body) loop(h loopHead) {
	b.l("%s", h.head)
	for _, p := range h.pre {
		b.l("%s", p)
	}
}

// task adds the statements a goroutine runs for item it under context ctx;
// they leave the outcome in a new variable, whose name task returns. item
// is false in a generic function, where it has no fields.
func (g *gen) task(f *file, b *body, ctx, it string, generic bool) string {
	err := g.id("err")
	if generic {
		b.l("%s := fn(%s, %s)", err, ctx, it)
		return err
	}
	switch g.r.IntN(8) {
	case 0:
		g.need("fetch")
		b.l("_, %s := fetch(%s, \"http://example.com/\"+%s.ID)", err, ctx, it)
	case 1:
		g.need("db")
		b.l("_, %s := db.ExecContext(%s, \"update t set n = ?\", %s.N)", err, ctx, it)
	case 2:
		// A retry loop with a fixed sleep.
		f.imp("time")
		g.need("work")
		a := g.id("attempt")
		b.l("var %s error", err)
		b.l("for %s := 0; %s < 3; %s++ {", a, a, a)
		b.l("if %s = work(%s, %s); %s == nil {", err, ctx, it, err)
		b.l("break")
		b.l("}")
		b.l("time.Sleep(%s)", g.pick("10*time.Millisecond", "time.Second"))
		b.l("}")
	case 3:
		// A labelled loop with a select.
		g.need("work")
		label := g.id("Steps")
		k := g.id("k")
		b.l("var %s error", err)
		b.l("%s:", label)
		b.l("for %s := 0; %s < 2; %s++ {", k, k, k)
		b.l("select {")
		b.l("case <-%s.Done():", ctx)
		b.l("%s = %s.Err()", err, ctx)
		b.l("break %s", label)
		b.l("default:")
		b.l("}")
		b.l("%s = work(%s, %s)", err, ctx, it)
		b.l("}")
	case 4:
		g.need("echo")
		b.l("_, %s := echo.Echo(%s, &EchoReq{Msg: %s.ID})", err, ctx, it)
	default:
		g.need("work")
		b.l("%s := work(%s, %s)", err, ctx, it)
	}
	return err
}

// fanSig is the signature of a fan-out function.
func (g *gen) fanSig(f *file, results ...string) (*sig, bool) {
	f.imp("context")
	s := &sig{name: g.id("Fan"), ctx: "ctx", results: results}
	generic := g.chance(20)
	if generic {
		s.tparams = "[T any]"
		s.params = []string{"ctx context.Context", "items []T", "fn func(context.Context, T) error"}
	} else {
		g.need("Item")
		s.params = []string{"ctx context.Context", "items []Item"}
	}
	if len(results) > 0 && results[len(results)-1] == "error" {
		s.errLast = true
		for _, r := range results[:len(results)-1] {
			s.zeros = append(s.zeros, zero(r))
		}
	}
	return s, generic
}

func zero(t string) string {
	switch {
	case t == "int":
		return "0"
	case t == "string":
		return `""`
	case strings.HasPrefix(t, "[]"), strings.HasPrefix(t, "*"), strings.HasPrefix(t, "map["):
		return "nil"
	}
	return t + "{}"
}

// taskCtx picks the context a goroutine uses.
func (g *gen) taskCtx(ctxs ...string) string {
	if g.chance(20) && !strings.HasPrefix(ctxs[0], "gctx") {
		return "context.Background()"
	}
	return g.pick(ctxs...)
}

// fanout adds a function that starts a goroutine per item.
func (g *gen) fanout(f *file) {
	switch g.r.IntN(12) {
	case 0, 1:
		g.wgSlice(f)
	case 2:
		g.wgMutex(f)
	case 3:
		g.wgGo(f)
	case 4, 5:
		g.wgChan(f)
	case 6:
		g.wgAfter(f)
	case 7, 8:
		g.errgroup(f)
	case 9:
		g.nested(f)
	case 10:
		g.errgroupChan(f)
	default:
		g.wgChan(f)
	}
}

func (g *gen) wg(f *file, b *body) string {
	f.imp("sync")
	wg := g.id("wg")
	b.l("var %s sync.WaitGroup", wg)
	return wg
}

// wgSlice: results by index, Add(1) in the loop or Add(len) before it.
func (g *gen) wgSlice(f *file) {
	s, generic := g.fanSig(f, "[]error")
	b := &body{}
	errs := g.id("errs")
	b.l("%s := make([]error, len(items))", errs)
	wg := g.wg(f, b)
	before := g.chance(25)
	if before {
		b.l("%s.Add(len(items))", wg)
	}
	h := g.loopOver("items", true)
	b.loop(h)
	if !before {
		b.l("%s.Add(1)", wg)
	}
	b.l("go func() {")
	b.l("defer %s.Done()", wg)
	if g.chance(30) {
		b.l("if %s < 0 {", h.idx)
		b.l("return")
		b.l("}")
	}
	err := g.task(f, b, g.taskCtx("ctx"), h.it, generic)
	b.l("%s[%s] = %s", errs, h.idx, err)
	b.l("}()")
	b.l("}")
	b.l("%s.Wait()", wg)
	b.l("return %s", errs)
	f.decl("%s", fn(s, b))
}

// wgMutex: results appended under a mutex.
func (g *gen) wgMutex(f *file) {
	s, generic := g.fanSig(f, "int")
	b := &body{}
	mu, failed := g.id("mu"), g.id("failed")
	f.imp("sync")
	b.l("var %s sync.Mutex", mu)
	b.l("var %s []error", failed)
	wg := g.wg(f, b)
	h := g.loopOver("items", false)
	b.loop(h)
	b.l("%s.Add(1)", wg)
	b.l("go func() {")
	b.l("defer %s.Done()", wg)
	err := g.task(f, b, g.taskCtx("ctx"), h.it, generic)
	b.l("if %s != nil {", err)
	b.l("%s.Lock()", mu)
	b.l("%s = append(%s, %s)", failed, failed, err)
	b.l("%s.Unlock()", mu)
	b.l("}")
	b.l("}()")
	b.l("}")
	b.l("%s.Wait()", wg)
	b.l("return len(%s)", failed)
	f.decl("%s", fn(s, b))
}

// wgGo: WaitGroup.Go with an atomic counter.
func (g *gen) wgGo(f *file) {
	s, generic := g.fanSig(f, "int")
	b := &body{}
	f.imp("sync/atomic")
	n := g.id("failures")
	b.l("var %s atomic.Int64", n)
	wg := g.wg(f, b)
	h := g.loopOver("items", false)
	b.loop(h)
	b.l("%s.Go(func() {", wg)
	err := g.task(f, b, g.taskCtx("ctx"), h.it, generic)
	b.l("if %s != nil {", err)
	b.l("%s.Add(1)", n)
	b.l("}")
	b.l("})")
	b.l("}")
	b.l("%s.Wait()", wg)
	b.l("return int(%s.Load())", n)
	f.decl("%s", fn(s, b))
}

// wgChan: results sent on a channel, drained after the loop, before it by
// a collector, or counted; unbuffered or buffered.
func (g *gen) wgChan(f *file) {
	s, generic := g.fanSig(f, "error")
	b := &body{}
	res := g.id("res")
	buffered := g.chance(35)
	if buffered {
		b.l("%s := make(chan error, len(items))", res)
	} else {
		b.l("%s := make(chan error)", res)
	}
	first := g.id("first")
	b.l("var %s error", first)
	collector := g.r.IntN(3) // 0: after the loop, 1: before it, 2: counted drain
	done := g.id("done")
	if collector == 1 {
		b.l("%s := make(chan struct{})", done)
		b.l("go func() {")
		b.l("defer close(%s)", done)
		b.l("for err := range %s {", res)
		b.l("if err != nil && %s == nil {", first)
		b.l("%s = err", first)
		b.l("}")
		b.l("}")
		b.l("}()")
	}
	wg := ""
	if collector != 2 {
		wg = g.wg(f, b)
	}
	h := g.loopOver("items", false)
	b.loop(h)
	if wg != "" {
		b.l("%s.Add(1)", wg)
	}
	b.l("go func() {")
	if wg != "" {
		b.l("defer %s.Done()", wg)
	}
	err := g.task(f, b, g.taskCtx("ctx"), h.it, generic)
	if g.chance(30) {
		b.l("select {")
		b.l("case %s <- %s:", res, err)
		b.l("case <-ctx.Done():")
		b.l("}")
	} else {
		b.l("%s <- %s", res, err)
	}
	b.l("}()")
	b.l("}")
	switch collector {
	case 0:
		b.l("go func() {")
		b.l("%s.Wait()", wg)
		b.l("close(%s)", res)
		b.l("}()")
		b.l("for err := range %s {", res)
		b.l("if err != nil && %s == nil {", first)
		b.l("%s = err", first)
		b.l("}")
		b.l("}")
	case 1:
		b.l("%s.Wait()", wg)
		b.l("close(%s)", res)
		b.l("<-%s", done)
	case 2:
		b.l("for range items {")
		b.l("select {")
		b.l("case err := <-%s:", res)
		b.l("if err != nil && %s == nil {", first)
		b.l("%s = err", first)
		b.l("}")
		b.l("case <-ctx.Done():")
		b.l("return ctx.Err()")
		b.l("}")
		b.l("}")
	}
	b.l("return %s", first)
	f.decl("%s", fn(s, b))
}

// wgAfter: the goroutines wait for something the function does after the
// loop: a start signal, or the values it sends them.
func (g *gen) wgAfter(f *file) {
	s, generic := g.fanSig(f, "int")
	b := &body{}
	f.imp("sync/atomic")
	n := g.id("failures")
	b.l("var %s atomic.Int64", n)
	start := g.id("start")
	signal := g.chance(50)
	if signal {
		b.l("%s := make(chan struct{})", start)
	} else {
		b.l("%s := make(chan int)", start)
	}
	wg := g.wg(f, b)
	h := g.loopOver("items", false)
	b.loop(h)
	b.l("%s.Add(1)", wg)
	b.l("go func() {")
	b.l("defer %s.Done()", wg)
	b.l("<-%s", start)
	err := g.task(f, b, g.taskCtx("ctx"), h.it, generic)
	b.l("if %s != nil {", err)
	b.l("%s.Add(1)", n)
	b.l("}")
	b.l("}()")
	b.l("}")
	if signal {
		b.l("close(%s)", start)
	} else {
		b.l("for i := range items {")
		b.l("%s <- i", start)
		b.l("}")
	}
	b.l("%s.Wait()", wg)
	b.l("return int(%s.Load())", n)
	f.decl("%s", fn(s, b))
}

// errgroupVar declares an errgroup and returns its name and the context its
// goroutines use.
func (g *gen) errgroupVar(f *file, b *body, parent string) (string, string) {
	f.imp("golang.org/x/sync/errgroup")
	grp := g.id("g")
	switch g.r.IntN(3) {
	case 0:
		b.l("var %s errgroup.Group", grp)
		return grp, parent
	case 1:
		gctx := g.id("gctx")
		b.l("%s, %s := errgroup.WithContext(%s)", grp, gctx, parent)
		return grp, gctx
	}
	b.l("%s := new(errgroup.Group)", grp)
	return grp, parent
}

// errgroup: errgroup.Go per item; Wait's error returned, checked or
// ignored.
func (g *gen) errgroup(f *file) {
	s, generic := g.fanSig(f, "[]error", "error")
	b := &body{}
	grp, gctx := g.errgroupVar(f, b, "ctx")
	out := g.id("out")
	b.l("%s := make([]error, len(items))", out)
	h := g.loopOver("items", true)
	b.loop(h)
	b.l("%s.Go(func() error {", grp)
	err := g.task(f, b, g.taskCtx(gctx), h.it, generic)
	b.l("%s[%s] = %s", out, h.idx, err)
	if g.chance(50) {
		b.l("return %s", err)
	} else {
		b.l("return nil")
	}
	b.l("})")
	b.l("}")
	switch g.r.IntN(3) {
	case 0:
		b.l("return %s, %s.Wait()", out, grp)
	case 1:
		b.l("if err := %s.Wait(); err != nil {", grp)
		b.l("return nil, err")
		b.l("}")
		b.l("return %s, nil", out)
	default:
		b.l("_ = %s.Wait()", grp)
		b.l("return %s, nil", out)
	}
	f.decl("%s", fn(s, b))
}

// errgroupChan: an errgroup whose goroutines send results on a channel
// drained after the loop.
func (g *gen) errgroupChan(f *file) {
	s, generic := g.fanSig(f, "int", "error")
	b := &body{}
	grp, gctx := g.errgroupVar(f, b, "ctx")
	res := g.id("res")
	b.l("%s := make(chan error)", res)
	h := g.loopOver("items", false)
	b.loop(h)
	b.l("%s.Go(func() error {", grp)
	err := g.task(f, b, g.taskCtx(gctx), h.it, generic)
	b.l("%s <- %s", res, err)
	b.l("return nil")
	b.l("})")
	b.l("}")
	werr := g.id("werr")
	b.l("var %s error", werr)
	b.l("go func() {")
	b.l("%s = %s.Wait()", werr, grp)
	b.l("close(%s)", res)
	b.l("}()")
	n := g.id("n")
	b.l("%s := 0", n)
	b.l("for err := range %s {", res)
	b.l("if err != nil {")
	b.l("%s++", n)
	b.l("}")
	b.l("}")
	b.l("return %s, %s", n, werr)
	f.decl("%s", fn(s, b))
}

// nested: a goroutine per batch, each starting a goroutine per item.
func (g *gen) nested(f *file) {
	g.need("Item")
	f.imp("context")
	s := &sig{name: g.id("Nest"), ctx: "ctx", params: []string{"ctx context.Context", "batches [][]Item"}, results: []string{"error"}, errLast: true}
	b := &body{}
	if g.chance(50) {
		grp, gctx := g.errgroupVar(f, b, "ctx")
		outer := g.loopOver("batches", false)
		b.loop(outer)
		b.l("%s.Go(func() error {", grp)
		inner, ictx := g.errgroupVar(f, b, gctx)
		h := g.loopOver(outer.it, false)
		b.loop(h)
		b.l("%s.Go(func() error {", inner)
		err := g.task(f, b, g.taskCtx(ictx), h.it, false)
		b.l("return %s", err)
		b.l("})")
		b.l("}")
		b.l("return %s.Wait()", inner)
		b.l("})")
		b.l("}")
		b.l("return %s.Wait()", grp)
	} else {
		f.imp("sync/atomic")
		n := g.id("failures")
		b.l("var %s atomic.Int64", n)
		wg := g.wg(f, b)
		outer := g.loopOver("batches", false)
		b.loop(outer)
		b.l("%s.Add(1)", wg)
		b.l("go func() {")
		b.l("defer %s.Done()", wg)
		iwg := g.wg(f, b)
		h := g.loopOver(outer.it, false)
		b.loop(h)
		b.l("%s.Add(1)", iwg)
		b.l("go func() {")
		b.l("defer %s.Done()", iwg)
		err := g.task(f, b, g.taskCtx("ctx"), h.it, false)
		b.l("if %s != nil {", err)
		b.l("%s.Add(1)", n)
		b.l("}")
		b.l("}()")
		b.l("}")
		b.l("%s.Wait()", iwg)
		b.l("}()")
		b.l("}")
		b.l("%s.Wait()", wg)
		b.l("if %s.Load() > 0 {", n)
		f.imp("errors")
		b.l("return errors.New(\"some items failed\")")
		b.l("}")
		b.l("return nil")
	}
	f.decl("%s", fn(s, b))
}
