// Package fixgen generates random valid Go programs that exercise the shapes
// resilint's suggested fixes rewrite: outbound calls with and without
// contexts, retry loops that sleep, goroutines per item with WaitGroups,
// errgroups and channels, shared circuit breakers; placed in loops, labels,
// closures, defer and go statements, select and switch cases, generic and
// plain functions, in one or two files. Its test applies resilint -fix to
// hundreds of them and checks that the result builds, passes go vet, and is
// a fixpoint (a second -fix changes nothing).
//
// A program is a function of its seed and of the flavor of the module it is
// written for (whether the module requires resil, and whether its
// golang.org/x/sync has errgroup's SetLimit).
package fixgen

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
)

// Flavor describes the module a program is generated for.
type Flavor struct {
	// Resil: the module requires github.com/resilint/resilint/resil.
	Resil bool
	// OldSync: the module's golang.org/x/sync predates errgroup's SetLimit
	// and TryGo.
	OldSync bool
}

// Program returns the files (name → source) of package pkg generated from
// seed. Every file is gofmt-formatted. It panics if the generator produced
// text that does not parse: a bug of the generator.
func Program(seed uint64, pkg string, fl Flavor) map[string][]byte {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), pkg: pkg, fl: fl, helpers: map[string]bool{}}
	g.common = g.newFile("common.go")
	files := []*file{g.newFile("a.go")}
	if g.chance(35) {
		files = append(files, g.newFile("b.go"))
	}
	if g.chance(15) {
		files[len(files)-1].ctxAlias = "gocontext"
	}
	n := 2 + g.r.IntN(5)
	for i := 0; i < n; i++ {
		f := files[g.r.IntN(len(files))]
		g.fragment(f)
	}
	out := map[string][]byte{}
	for _, f := range append([]*file{g.common}, files...) {
		src := f.source(pkg)
		fmted, err := format.Source([]byte(src))
		if err != nil {
			panic(fmt.Sprintf("fixgen: seed %d: %s does not parse: %v\n%s", seed, f.name, err, src))
		}
		out[f.name] = fmted
	}
	return out
}

type gen struct {
	r       *rand.Rand
	pkg     string
	fl      Flavor
	n       int // unique suffixes
	common  *file
	helpers map[string]bool
}

// file is one source file being generated.
type file struct {
	name    string
	imports map[string]bool
	decls   []string
	// ctxAlias imports package context under another name.
	ctxAlias string
}

func (g *gen) newFile(name string) *file {
	return &file{name: name, imports: map[string]bool{}}
}

func (f *file) imp(paths ...string) {
	for _, p := range paths {
		f.imports[p] = true
	}
}

func (f *file) decl(format string, args ...any) {
	f.decls = append(f.decls, fmt.Sprintf(format, args...))
}

func (f *file) source(pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code for resilint's fix tests (internal/fixgen); not generated in the go:generate sense.\n\npackage %s\n\n", pkg)
	text := strings.Join(f.decls, "\n")
	if f.ctxAlias != "" {
		text = ctxRef.ReplaceAllString(text, "${1}"+f.ctxAlias+".")
	}
	var paths []string
	for p := range f.imports {
		// A fragment may import a package its chosen shape then does not
		// use: keep only the used ones.
		name := p[strings.LastIndex(p, "/")+1:]
		if p == "context" && f.ctxAlias != "" {
			name = f.ctxAlias
		}
		if strings.Contains(text, name+".") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) > 0 {
		b.WriteString("import (\n")
		for _, p := range paths {
			if p == "context" && f.ctxAlias != "" {
				fmt.Fprintf(&b, "\t%s %q\n", f.ctxAlias, p)
				continue
			}
			fmt.Fprintf(&b, "\t%q\n", p)
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(text)
	b.WriteString("\n")
	return b.String()
}

// ctxRef matches a reference to package context (not a field or method
// named context).
var ctxRef = regexp.MustCompile(`(^|[^.\w])context\.`)

func (g *gen) chance(percent int) bool { return g.r.IntN(100) < percent }

func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// id returns a fresh identifier with the given prefix.
func (g *gen) id(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

// fragment adds one top-level function (and what it needs) to f.
func (g *gen) fragment(f *file) {
	switch k := g.r.IntN(100); {
	case k < 35:
		g.ctxFunc(f)
	case k < 70:
		g.fanout(f)
	case k < 88:
		g.retry(f)
	case k < 94:
		g.breaker(f)
	default:
		g.returnsLive(f)
	}
}

// need adds a shared helper declaration to common.go once.
func (g *gen) need(name string) {
	if g.helpers[name] {
		return
	}
	g.helpers[name] = true
	c := g.common
	switch name {
	case "Item":
		c.decl("type Item struct {\n\tID  string\n\tN   int\n}")
	case "work":
		g.need("Item")
		c.imp("context")
		c.decl("func work(ctx context.Context, it Item) error {\n\tif it.ID == \"\" {\n\t\treturn nil\n\t}\n\treturn ctx.Err()\n}")
	case "value":
		g.need("Item")
		c.imp("context")
		c.decl("func value(ctx context.Context, it Item) (int, error) {\n\tif err := ctx.Err(); err != nil {\n\t\treturn 0, err\n\t}\n\treturn it.N, nil\n}")
	case "verbose":
		c.decl("var verbose bool")
	case "db":
		c.imp("database/sql")
		c.decl("var db *sql.DB")
	case "count":
		g.need("db")
		c.imp("context")
		c.decl("func count(ctx context.Context) int {\n\tvar n int\n\tif err := db.QueryRowContext(ctx, \"select count(*) from t\").Scan(&n); err != nil {\n\t\treturn -1\n\t}\n\treturn n\n}")
	case "hc":
		c.imp("net/http")
		c.decl("var hc = &http.Client{}")
	case "fetch":
		// A forwarder: hands its ctx to an outbound call nothing bounds.
		g.need("hc")
		c.imp("context", "io", "net/http")
		c.decl("func fetch(ctx context.Context, url string) ([]byte, error) {\n\treq, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tresp, err := hc.Do(req)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tdefer resp.Body.Close()\n\treturn io.ReadAll(resp.Body)\n}")
	case "open":
		// A forwarder returning the response: its body lives on ctx.
		g.need("hc")
		c.imp("context", "net/http")
		c.decl("func open(ctx context.Context, url string) (*http.Response, error) {\n\treq, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn hc.Do(req)\n}")
	case "echo":
		c.imp("context", "google.golang.org/grpc")
		c.decl("type EchoReq struct{ Msg string }")
		c.decl("type EchoResp struct{ Msg string }")
		c.decl("type EchoClient interface {\n\tEcho(ctx context.Context, in *EchoReq, opts ...grpc.CallOption) (*EchoResp, error)\n\tWatch(ctx context.Context, in *EchoReq, opts ...grpc.CallOption) (Echo_WatchClient, error)\n}")
		c.decl("type Echo_WatchClient interface {\n\tRecv() (*EchoResp, error)\n\tgrpc.ClientStream\n}")
		c.decl("type echoClient struct{ cc grpc.ClientConnInterface }")
		c.decl("func NewEchoClient(cc grpc.ClientConnInterface) EchoClient { return &echoClient{cc: cc} }")
		c.decl("func (c *echoClient) Echo(ctx context.Context, in *EchoReq, opts ...grpc.CallOption) (*EchoResp, error) {\n\tout := new(EchoResp)\n\tif err := c.cc.Invoke(ctx, \"/echo.Echo/Echo\", in, out, opts...); err != nil {\n\t\treturn nil, err\n\t}\n\treturn out, nil\n}")
		c.decl("var watchDesc = &grpc.StreamDesc{StreamName: \"Watch\", ServerStreams: true}")
		c.decl("func (c *echoClient) Watch(ctx context.Context, in *EchoReq, opts ...grpc.CallOption) (Echo_WatchClient, error) {\n\tstream, err := c.cc.NewStream(ctx, watchDesc, \"/echo.Echo/Watch\", opts...)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tx := &echoWatchClient{stream}\n\tif err := x.ClientStream.SendMsg(in); err != nil {\n\t\treturn nil, err\n\t}\n\tif err := x.ClientStream.CloseSend(); err != nil {\n\t\treturn nil, err\n\t}\n\treturn x, nil\n}")
		c.decl("type echoWatchClient struct{ grpc.ClientStream }")
		c.decl("func (x *echoWatchClient) Recv() (*EchoResp, error) {\n\tm := new(EchoResp)\n\tif err := x.ClientStream.RecvMsg(m); err != nil {\n\t\treturn nil, err\n\t}\n\treturn m, nil\n}")
		c.decl("var conn, _ = grpc.NewClient(\"localhost:50051\")")
		c.decl("var echo = NewEchoClient(conn)")
	}
}
