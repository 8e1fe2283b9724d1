// Package knowledge is resilint's one table of API knowledge: which calls are
// outbound and how their deadline is set, which functions make or derive
// contexts, which functions retry, which types are circuit breakers and which
// calls bound concurrency.
//
// Every row is keyed by the spelling that [go/types.Func.FullName] produces for
// the function (for generic code, the spelling of its origin), for example
//
//	net/http.Get
//	(*net/http.Client).Do
//	(*database/sql.DB).QueryContext
//	(*github.com/sony/gobreaker/v2.CircuitBreaker[T]).Execute
//
// or, for types and variables, "path.Name" (net/http.Client,
// net/http.DefaultClient). Analyzers look rows up by these keys and never
// spell a package path themselves; adding a library is adding rows, and a
// team's configuration adds rows for its own wrappers (see [Table.Merge]).
package knowledge

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
)

// Table is the whole knowledge base. The zero value is empty; [Default]
// returns the built-in rows. A Table is read-only once analysis starts.
type Table struct {
	// Outbound calls: functions and methods that talk to another process.
	Outbound map[string]Outbound
	// OutboundTypes: types every method of which that takes a context
	// first is an outbound call (a Redis client's hundreds of commands),
	// keyed by the "path.Name" of the method's receiver type. Ctx is 0.
	OutboundTypes map[string]Outbound
	// GRPC describes the generated gRPC client shape (matched structurally).
	GRPC GRPCShape
	// Requests: functions that build or re-context an outbound request.
	Requests map[string]RequestFunc
	// Contexts: functions that return a context.Context, and what it carries.
	Contexts map[string]ContextFunc
	// ContextErr: the method that reports whether a context is done
	// ((context.Context).Err).
	ContextErr map[string]bool
	// RunsLater: functions that keep a function argument (index) to run
	// after the caller has returned (time.AfterFunc, context.AfterFunc).
	RunsLater map[string]int
	// AfterDone: functions that run a function argument once a context
	// argument is done (context.AfterFunc): the indexes of the context and
	// of the function.
	AfterDone map[string][2]int
	// SharedWork: functions that run a function argument once on behalf of
	// every caller (sync.Once.Do, singleflight.Group.Do). Work done there
	// must not end when the caller that happened to start it gives up, so
	// a fresh context inside it is not a detached one.
	SharedWork map[string]bool
	// Inbound: methods that return the context of an inbound request
	// (a caller's budget), keyed by method.
	Inbound map[string]bool
	// InboundParams: parameter types that mark a function serving an inbound
	// request ("net/http.Request" as *http.Request).
	InboundParams map[string]bool
	// Senders: methods that send a request they are given, besides the
	// outbound rows with a Request index (http.RoundTripper.RoundTrip). A
	// function that passes its request parameter to one is client side.
	Senders map[string]bool
	// ClientTypes: types whose field bounds every call made through a value
	// of the type (net/http.Client.Timeout, net.Dialer.Timeout).
	ClientTypes map[string]ClientType
	// Clients: package-level variables and constructors that yield a client,
	// with whether it has a timeout.
	Clients map[string]ClientValue
	// TransportTypes: transport types, by "path.Name" (net/http.Transport).
	TransportTypes map[string]TransportType
	// DefaultTransports: package-level transports with no bound of their
	// own (net/http.DefaultTransport), and the methods that copy a
	// transport's settings ((*net/http.Transport).Clone).
	DefaultTransports map[string]bool
	TransportCopies   map[string]bool
	// ConnCapSetters: methods that cap a client's open connections, with
	// the index of the cap argument ((*database/sql.DB).SetMaxOpenConns(n):
	// n > 0 makes callers wait for a free connection).
	ConnCapSetters map[string]int
	// Locality tells local work (loopback, unix sockets, embedded
	// databases, files, subprocesses) from calls that reach another
	// machine.
	Locality LocalityTable
	// Formatters build a string from a format argument (index):
	// fmt.Sprintf("127.0.0.1:%d", port).
	Formatters map[string]int
	// HostJoins build an address from a host argument (index):
	// net.JoinHostPort(host, port).
	HostJoins map[string]int
	// URLs: how URL values keep the scheme and host they are built from.
	URLs URLTable
	// TestingTypes are the types whose presence as a parameter marks a
	// function as test code (a helper taking *testing.T): its findings are
	// reported only with the tests option, like those of _test.go files.
	TestingTypes map[string]bool
	// TestingPackages mark a file that imports them as test code (a test
	// helper, an acceptance-test harness, a suite of a test framework):
	// production code imports neither package testing nor a test
	// framework's assertions and specs.
	TestingPackages map[string]bool
	// Conns: what reads a dialled connection and what bounds those reads.
	Conns ConnTable
	// StreamNetworks are the prefixes of network names whose dials wait on a
	// remote peer ("tcp": tcp, tcp4, tcp6).
	StreamNetworks []string
	// DefaultClient is the package-level client that calls with
	// ClientFrom DefaultClient use (net/http.DefaultClient).
	DefaultClient string
	// Deadlines: functions whose result is a point in time derived from now
	// (time.Now), used to read WithDeadline(ctx, time.Now().Add(d)).
	Now map[string]bool
	// Elapsed: functions whose result is the time left until, or spent
	// since, a point in time (time.Until, time.Since): comparing it checks
	// a deadline.
	Elapsed map[string]bool
	// TimeAdd: methods that add a duration to a time (time.Time.Add).
	TimeAdd map[string]bool
	// ErrorMatches: functions that report whether an error (argument 0)
	// matches a target (argument 1): errors.Is.
	ErrorMatches map[string]bool
	// NoReturn: functions that never return to their caller (os.Exit,
	// log.Fatal, t.FailNow): a loop leaves through a call of one. The
	// module's own are found through their bodies (retryloop.NoReturnFact).
	NoReturn map[string]bool
	// LiveOnContext: types whose values keep using the context of the call
	// that made them, keyed by "path.Name" (pointers to them too): a
	// transaction rolls back, rows close and a response body stops reading
	// when that context is cancelled. (gRPC streams, recognised by
	// GRPC.StreamMethods, do too.) A timeout fix that cancels the context
	// at return must not touch a call whose such value outlives the
	// function or is kept.
	LiveOnContext map[string]bool
	// DoneSignals: methods and variables that tell a context is done
	// ((context.Context).Err, context.Canceled). Code in a branch on them
	// runs because a context is done: a fix must not hand it that context.
	DoneSignals map[string]bool

	// Extra holds tables added by other parts of resilint (retry helpers,
	// breakers, bounds); see the files of this package that define them.
	Retry    RetryTable
	Breakers BreakerTable
	Bounds   BoundTable

	pathsOnce sync.Once
	pathSet   map[string]bool
}

// PathSet is Paths as a set, computed once. Rows must not be added after
// the first call.
func (t *Table) PathSet() map[string]bool {
	t.pathsOnce.Do(func() {
		t.pathSet = map[string]bool{}
		for _, p := range t.Paths() {
			t.pathSet[p] = true
		}
	})
	return t.pathSet
}

// Kind classifies an outbound call.
type Kind uint8

const (
	KindUnknown Kind = iota
	HTTP             // an HTTP request
	GRPC             // a gRPC call
	Dial             // a network dial
	TLS              // a TLS dial
	SQL              // a database/sql call
	Custom           // a team's own outbound wrapper
)

var kindNames = map[Kind]string{HTTP: "http", GRPC: "grpc", Dial: "dial", TLS: "tls", SQL: "sql", Custom: "custom"}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "unknown"
}

// ParseKind reads a kind name as written in configuration.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if n == s {
			return k, nil
		}
	}
	return KindUnknown, fmt.Errorf("unknown outbound kind %q (want one of http, grpc, dial, tls, sql, custom)", s)
}

// None marks an absent parameter index.
const None = -1

// ClientFrom says where the client (or dialer) that bounds a call comes from.
type ClientFrom uint8

const (
	// NoClient: nothing but the context bounds the call (database/sql, gRPC).
	NoClient ClientFrom = iota
	// Receiver: the method's receiver is the client (c.Get, d.DialContext).
	Receiver
	// DefaultClient: the package-level functions of net/http use
	// http.DefaultClient, which has no timeout.
	DefaultClient
	// Argument: the argument at ClientArg is the client or dialer.
	Argument
)

// Outbound describes a function that makes an outbound call.
type Outbound struct {
	Kind Kind
	// Ctx is the index of the context.Context parameter, or None.
	Ctx int
	// Request is the index of an *http.Request-like parameter whose context
	// bounds the call, or None.
	Request int
	// Client says which value's timeout field bounds the call.
	Client    ClientFrom
	ClientArg int
	// Bounded: the call carries its own timeout (net.DialTimeout).
	Bounded bool
	// Variant is the context-taking variant of a call that has no context,
	// as a user writes it ("QueryContext", "DialContext"); empty if none.
	Variant string
	// Target is the index of the URL or address argument, or None.
	Target int
	// Network is the index of a network-name argument ("tcp", "udp",
	// "unix"), or None. A call on a network that is not a stream to a
	// remote host (StreamNetworks) cannot hang on a peer and is not an
	// outbound call.
	Network int
	// Statement is the index of the SQL statement argument of a database
	// call (db.Exec(query, ...)), or None.
	Statement int
	// Pool: the call waits for a connection from a pool (sql.DB.Ping,
	// Begin, Conn): an unreachable database or an exhausted pool holds it.
	Pool bool
	// Stream: the call opens a stream that may rightly live as long as its
	// context (a gRPC watch or subscription). A deadline is not required of
	// it, so a deadline-free context is not reported; Background() while
	// the caller's context is in scope still is.
	Stream bool
}

// GRPCShape describes generated gRPC client methods: first parameter a
// context, last a variadic CallOption.
type GRPCShape struct {
	// CallOption is the "path.Name" of the call option type.
	CallOption string
	// Methods are the connection methods generated clients call
	// (ClientConn.Invoke); calls to them are outbound too.
	Methods map[string]Outbound
	// Registrars are the "path.Name" spellings of the gRPC server types a
	// service's registration function takes (RegisterRoomsServer(s
	// grpc.ServiceRegistrar, srv RoomsServer)): the methods of the service
	// interface it also takes serve inbound requests.
	Registrars []string
	// StreamMethods are the methods of grpc.ClientStream, spelled as
	// types.Func.FullName spells them: a generated client method whose first
	// result has those methods (embedding the interface, as every generated
	// stream does) opens a stream (Outbound.Stream).
	StreamMethods []string
	// FiniteStreamMethods are the methods protoc-gen-go-grpc gives a
	// client-streaming stream to finish it and wait for the one answer
	// (CloseAndRecv): a stream they are called on is read to its end.
	FiniteStreamMethods []string
	// EndOfStream is the "path.Name" of the error a stream's Recv returns
	// at its end (io.EOF): a stream whose errors are compared with it is
	// drained to its end.
	EndOfStream string
	// WaitForReady is the call option that makes a call wait for the
	// connection to become ready instead of failing fast
	// (grpc.WaitForReady(true)).
	WaitForReady string
	// DefaultCallOptions is the dial option that gives every call of the
	// connection call options (grpc.WithDefaultCallOptions).
	DefaultCallOptions string
	// DefaultServiceConfig is the dial option that gives the connection a
	// service config in JSON (grpc.WithDefaultServiceConfig): a method
	// config with "waitForReady": true makes its calls wait for ready.
	DefaultServiceConfig string
	// Dials are the functions that make a client connection, with the index
	// of their first dial option (grpc.NewClient(target, opts...): 1).
	Dials map[string]int
	// DialTargets are the same functions with the index of their target
	// argument (grpc.NewClient(target, opts...): 0).
	DialTargets map[string]int
	// ConnTypes are the "path.Name" spellings of the connection types a
	// generated client constructor takes (NewInventoryClient(cc)).
	ConnTypes []string
	// DeadlineOptions are the dial options that can give every call of the
	// connection a deadline (a unary interceptor, a service config with a
	// timeout). A call through a connection dialled with one is bounded as
	// far as resilint can tell: not reported.
	DeadlineOptions map[string]DialOption
	// DialOptionType is the "path.Name" spelling of the dial option type
	// (grpc.DialOption): a function's variadic parameter of it takes the
	// options its callers add, and a function returning it makes options.
	DialOptionType string
	// CustomDialers are the dial options that replace how a connection
	// reaches its target (grpc.WithContextDialer): a custom dialer may
	// dial a unix socket whatever the target says.
	CustomDialers []string
}

// DialOption is a dial option that can set call deadlines.
type DialOption struct {
	// Config is the index of a JSON service config argument: the option
	// sets deadlines only when that JSON (if constant) has a "timeout".
	// None: any use of the option can.
	Config int
	// Stream: with Config None, the option applies to streams only (a
	// stream interceptor); otherwise to unary calls only.
	Stream bool
}

// RequestFunc describes a function that returns an outbound request.
type RequestFunc struct {
	// Ctx is the index of the context argument, or None when the request
	// gets context.Background().
	Ctx int
	// From is the index of a request argument the result copies (WithContext,
	// Clone), or None.
	From int
	// Result is the index of the request among the results.
	Result int
	// URL is the index of the URL argument, or None (a copy keeps its
	// receiver's URL).
	URL int
	// Variant is the context-taking spelling ("NewRequestWithContext").
	Variant string
	// Type is the "path.Name" of the request type.
	Type string
}

// CtxEffect is what a context-returning function does to its parent.
type CtxEffect uint8

const (
	// Root: a fresh, deadline-free context (Background, TODO).
	Root CtxEffect = iota + 1
	// Inherit: the result has the parent's deadline, if any (WithValue,
	// WithCancel, signal.NotifyContext, metadata.NewOutgoingContext).
	Inherit
	// AddDeadline: the result has a deadline (WithTimeout, WithDeadline).
	AddDeadline
	// DropDeadline: the result never has a deadline (WithoutCancel).
	DropDeadline
)

// ContextFunc describes a function returning a context.
type ContextFunc struct {
	Effect CtxEffect
	// Parent is the index of the parent context argument (Inherit,
	// AddDeadline, DropDeadline), or None.
	Parent int
	// Result is the index of the context among the results.
	Result int
	// Duration is the index of a time.Duration argument (WithTimeout) or None;
	// Deadline is the index of a time.Time argument (WithDeadline) or None.
	Duration int
	Deadline int
	// Cancel is the index of the result that cancels the returned context
	// (WithCancel's cancel, NotifyContext's stop), or None.
	Cancel int
}

// ClientType names the field of a client type that bounds its calls.
type ClientType struct {
	// TimeoutField is the field path whose non-zero value bounds every call,
	// e.g. "Timeout"; a dotted path is read through fields
	// ("HTTPClient.Timeout", or "NetDialer.Timeout" for a tls.Dialer).
	TimeoutField string
	// DeadlineField, if any, is a field whose non-zero value bounds every
	// call too (net.Dialer.Deadline).
	DeadlineField string
	// TransportField, if any, holds the client's transport
	// (http.Client.Transport); absent, the client uses the default
	// transport. A transport can bound the wait for an answer of its own
	// (TransportTypes).
	TransportField string
}

// TransportType describes a transport type: what in it bounds the wait for
// an answer, and the functions it dials with.
type TransportType struct {
	// ResponseHeaderField bounds the wait for the answer once the request
	// is written (http.Transport.ResponseHeaderTimeout).
	ResponseHeaderField string
	// DialFields hold the functions the transport dials with
	// (DialContext, Dial, DialTLSContext, DialTLS). A function other than
	// a dialer's own method may wrap every connection with read and write
	// deadlines: the transport's bound is then unknown. A transport whose
	// every dial function dials a unix socket stays on this machine.
	DialFields []string
	// ConnCapField caps the connections the transport opens to one host
	// (http.Transport.MaxConnsPerHost): a request beyond it waits for one.
	ConnCapField string
}

// ClientValue is what is known about a package-level client variable or the
// result of a client constructor.
type ClientValue struct {
	HasTimeout bool
}

// Default returns the built-in table. Each call returns a fresh copy that the
// caller may merge rows into.
func Default() *Table {
	t := &Table{
		Outbound:      maps.Clone(outbound),
		OutboundTypes: maps.Clone(outboundTypes),
		GRPC: GRPCShape{CallOption: grpcCallOption, Methods: maps.Clone(grpcMethods),
			Registrars:          []string{grpcPath + ".ServiceRegistrar", grpcPath + ".Server"},
			StreamMethods:       []string{"(" + grpcPath + ".ClientStream).CloseSend", "(" + grpcPath + ".ClientStream).RecvMsg"},
			FiniteStreamMethods: []string{"CloseAndRecv"}, EndOfStream: "io.EOF", WaitForReady: grpcPath + ".WaitForReady",
			DefaultCallOptions: grpcPath + ".WithDefaultCallOptions", DefaultServiceConfig: grpcPath + ".WithDefaultServiceConfig",
			Dials: maps.Clone(grpcDials), DialTargets: maps.Clone(grpcDialTargets), ConnTypes: []string{grpcPath + ".ClientConnInterface", grpcPath + ".ClientConn"},
			DeadlineOptions: maps.Clone(grpcDeadlineOptions), DialOptionType: grpcPath + ".DialOption",
			CustomDialers: []string{grpcPath + ".WithContextDialer", grpcPath + ".WithDialer"}},
		DefaultClient:   "net/http.DefaultClient",
		StreamNetworks:  []string{"tcp"},
		Conns:           defaultConns(),
		Locality:        defaultLocality(),
		Formatters:      map[string]int{"fmt.Sprintf": 0},
		HostJoins:       map[string]int{"net.JoinHostPort": 0},
		URLs:            defaultURLs(),
		TestingTypes:    map[string]bool{"testing.T": true, "testing.B": true, "testing.F": true, "testing.TB": true},
		TestingPackages: maps.Clone(testingPackages),
		Requests:        maps.Clone(requests),
		Contexts:        maps.Clone(contexts),
		SharedWork:      maps.Clone(sharedWork),
		RunsLater:       maps.Clone(runsLater),
		AfterDone:       maps.Clone(afterDone),
		ContextErr:      map[string]bool{"(context.Context).Err": true},
		Inbound:         maps.Clone(inbound),
		InboundParams:   maps.Clone(inboundParams),
		Senders:         map[string]bool{"(net/http.RoundTripper).RoundTrip": true, "(*net/http.Transport).RoundTrip": true},
		ClientTypes:     maps.Clone(clientTypes),
		Clients:         maps.Clone(clients),
		TransportTypes: map[string]TransportType{"net/http.Transport": {
			ResponseHeaderField: "ResponseHeaderTimeout",
			DialFields:          []string{"DialContext", "Dial", "DialTLSContext", "DialTLS"},
			ConnCapField:        "MaxConnsPerHost",
		}},
		ConnCapSetters:    map[string]int{"(*database/sql.DB).SetMaxOpenConns": 0},
		DefaultTransports: map[string]bool{"net/http.DefaultTransport": true},
		TransportCopies:   map[string]bool{"(*net/http.Transport).Clone": true},
		Now:               maps.Clone(now),
		Elapsed:           maps.Clone(elapsed),
		TimeAdd:           maps.Clone(timeAdd),
		ErrorMatches:      map[string]bool{"errors.Is": true},
		NoReturn:          maps.Clone(noReturn),
		LiveOnContext:     maps.Clone(liveOnContext),
		DoneSignals:       maps.Clone(doneSignals),
		Retry:             defaultRetry(),
		Breakers:          defaultBreakers(),
		Bounds:            defaultBounds(),
	}
	return t
}

// Paths returns the sorted import paths that rows of the table mention, for
// the analyzers' fast paths (a package that imports none of them cannot
// contain a known call).
// FactPaths returns the import paths that can give a package facts: a
// package that is none of them and imports none of them (nor a package
// with facts) has no facts whatever its code. The vet engine's fast path
// skips such packages; passes whose facts could come from any code (the
// launch pass's limits) export them only under the same condition, so
// that both engines see the same facts.
func (t *Table) FactPaths() map[string]bool {
	set := map[string]bool{"time": true, "context": true}
	for _, p := range t.Paths() {
		set[p] = true
	}
	for _, p := range t.RetryPaths() {
		set[p] = true
	}
	for p := range t.Breakers.Paths() {
		set[p] = true
	}
	for p := range t.Bounds.Paths() {
		set[p] = true
	}
	return set
}

func (t *Table) Paths() []string {
	set := map[string]bool{}
	add := func(key string) {
		if p := PathOf(key); p != "" {
			set[p] = true
		}
	}
	for k := range t.Outbound {
		add(k)
	}
	for k := range t.GRPC.Methods {
		add(k)
	}
	for k := range t.OutboundTypes {
		add(k)
	}
	add(t.GRPC.CallOption)
	for k := range t.Requests {
		add(k)
	}
	for k := range t.Contexts {
		add(k)
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// PathOf returns the package path of a FullName-style key:
// "(*net/http.Client).Do" → "net/http", "net/http.Get" → "net/http".
func PathOf(key string) string {
	s := strings.TrimPrefix(key, "(")
	s = strings.TrimPrefix(s, "*")
	if i := strings.Index(s, ")"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "["); i >= 0 {
		s = s[:i]
	}
	slash := strings.LastIndex(s, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return s[:slash+1+dot]
}

// testingPackages are the packages only test code imports: testing and the
// test frameworks' spec and assertion packages.
var testingPackages = map[string]bool{
	"testing":                                  true,
	"github.com/onsi/ginkgo":                   true,
	"github.com/onsi/ginkgo/v2":                true,
	"github.com/onsi/gomega":                   true,
	"github.com/stretchr/testify/assert":       true,
	"github.com/stretchr/testify/require":      true,
	"github.com/stretchr/testify/suite":        true,
	"gotest.tools/v3/assert":                   true,
	"github.com/smartystreets/goconvey/convey": true,
	"github.com/frankban/quicktest":            true,
}

// SchemaVerbs are the first words of SQL statements that change a
// database's schema or its grants (DDL): a migration step that runs as long
// as the table needs, which a deadline would abort halfway.
var SchemaVerbs = []string{"CREATE", "ALTER", "DROP", "TRUNCATE", "RENAME", "COMMENT", "GRANT", "REVOKE"}

var noReturn = map[string]bool{
	"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"log.Panic": true, "log.Panicf": true, "log.Panicln": true,
	"(*log.Logger).Fatal": true, "(*log.Logger).Fatalf": true, "(*log.Logger).Fatalln": true,
	"(*log.Logger).Panic": true, "(*log.Logger).Panicf": true, "(*log.Logger).Panicln": true,
	"(*testing.common).Fatal": true, "(*testing.common).Fatalf": true, "(*testing.common).FailNow": true,
	"(*testing.common).Skip": true, "(*testing.common).Skipf": true, "(*testing.common).SkipNow": true,
	"runtime.Goexit": true,
}
