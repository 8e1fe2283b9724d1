package knowledge

import "maps"

// Rows for circuit breakers: their types, the calls that run a guarded
// operation, their constructors and registries, the settings that decide
// when they trip and how many probes they let through, and how to tell
// which dependency a guarded operation reaches.

// BreakerTable lists circuit-breaker types and their guarded-call methods.
type BreakerTable struct {
	// Types are the breaker types, "path.Name" (generic types without
	// their type parameters).
	Types map[string]bool
	// Guards are the calls that run an operation through a breaker, keyed
	// by function or method.
	Guards map[string]Guard
	// Ctors are the calls that construct a new breaker (not a registry
	// lookup), keyed by function or method.
	Ctors map[string]Ctor
	// Registries are the functions that return the process-wide breaker of
	// a name, and the index of the name argument.
	Registries map[string]int
	// Executors are the functions that compose policies (possibly a
	// breaker) into an executor whose methods run guarded operations
	// (failsafe.With), with the index of the first policy argument (the
	// rest are variadic policies too).
	Executors map[string]int
	// ExecutorMethods are the executor methods that return an executor with
	// the same policies (WithContext, OnDone, ...); those also in
	// ExecutorComposers (Compose) add their arguments as policies.
	ExecutorMethods   map[string]bool
	ExecutorComposers map[string]bool
	// Settings are the fields of settings structs ("path.Type.Field") and
	// package-level variables ("path.Name") whose value decides when the
	// breaker trips or how many probes it admits.
	Settings map[string]Setting
	// Options are the calls whose argument at Arg decides the same
	// (failsafe's WithFailureThreshold(n), resil's HalfOpenProbes(n),
	// eapache's breaker.New(errorThreshold, ...)).
	Options map[string]Setting
	// Counts are the types passed to a trip predicate (gobreaker's
	// ReadyToTrip(Counts) bool), with the situations every breaker must
	// survive, in the order they are tried: one failure among a thousand
	// requests (the last request failed), and the first request after the
	// counts were cleared failing.
	Counts map[string][]CountsSample
	// Targets are functions whose result designates the same dependency as
	// one of their arguments (Arg; -1: the receiver): request builders
	// (the URL argument), URL parsers and joiners.
	Targets map[string]int
	// Runtime is the runtime package the fixes use for per-dependency
	// breakers: Path, and Registry, the function that returns the
	// process-wide breaker of a dependency name.
	Runtime Runtime
}

// Runtime names the runtime package and the function a fix calls.
type Runtime struct {
	Path, Name string // import path and package name
	Func       string // function to call: BreakerFor, NewGroup
}

// GuardFrom says where a guarded call's breaker comes from.
type GuardFrom uint8

const (
	// FromReceiver: the method's receiver is the breaker (cb.Execute).
	FromReceiver GuardFrom = iota
	// FromName: the argument at Name names the breaker (hystrix.Do(name, ...)).
	FromName
	// FromExecutor: the receiver is an executor made by an Executors row
	// (failsafe.With(cb).Get).
	FromExecutor
)

// Auto, as a Guard's Op, means: the first argument of function type; when
// there is none, the call returns a done callback (two-step use).
const Auto = -2

// Guard describes a call that runs an operation through a breaker.
type Guard struct {
	From GuardFrom
	// Name is the index of the breaker-name argument (FromName), or None.
	Name int
	// Op is the index of the guarded operation (a function argument); None
	// for two-step calls (Allow) whose result is a done callback that
	// closes the guarded region; Auto to find it from the signature.
	Op int
	// Resil is the method of the runtime breaker (resil.Breaker) with the
	// same arguments and results, when replacing the receiver with
	// resil.BreakerFor(name) is mechanical; "" otherwise.
	Resil string
}

// Ctor describes a call that constructs a breaker.
type Ctor struct {
	// Settings is the index of a settings struct argument, or None.
	Settings int
	// Default describes a breaker whose defaults open it after a single
	// failure (failsafe-go's NewWithDefaults, a builder that sets no
	// failure threshold).
	Default bool
	// Builder: the call starts a builder; Build (a Ctor with FromBuilder)
	// makes the breaker. Methods between them configure it.
	Builder     bool
	FromBuilder bool
}

// SettingKind is what a setting decides.
type SettingKind uint8

const (
	// TripCount: the breaker opens after this many failures (or at this
	// failure percentage, or with this minimum volume): a value of 1 or
	// less opens it on a single failure.
	TripCount SettingKind = iota + 1
	// TripFunc: a predicate over the breaker's counts (gobreaker
	// ReadyToTrip) called on every failure.
	TripFunc
	// Probes: how many requests the breaker lets through while half open.
	Probes
	// Threshold: configures when the breaker trips in a way resilint does
	// not judge (failure rates); it counts as configuring a builder.
	Threshold
)

// Setting describes a field, variable or option of a breaker's settings.
type Setting struct {
	Kind SettingKind
	// Arg is the index of the value among an option's arguments.
	Arg int
	// ZeroIsDefault: 0 means "use the library default" (hystrix, gobreaker
	// MaxRequests).
	ZeroIsDefault bool
	// BelowOneIsOne: values below 1 count as 1 (resil's
	// MinimumThroughput(0) is a minimum of one call).
	BelowOneIsOne bool
	// Volume: a TripCount that is the minimum number of requests in a
	// window before the failure rate counts (hystrix's
	// RequestVolumeThreshold, resil's MinimumThroughput): with 1, the
	// first request of a window failing is a 100% failure rate.
	Volume bool
}

const (
	gobreakerV1 = "github.com/sony/gobreaker"
	gobreakerV2 = "github.com/sony/gobreaker/v2"
	failsafe    = "github.com/failsafe-go/failsafe-go"
	failsafeCB  = "github.com/failsafe-go/failsafe-go/circuitbreaker"
	eapache     = "github.com/eapache/go-resiliency/breaker"
	hystrix     = "github.com/afex/hystrix-go/hystrix"
	// ResilPath is the runtime package that resilint's fixes target.
	ResilPath = "github.com/resilint/resilint/resil"
)

var breakerTypes = map[string]bool{
	gobreakerV1 + ".CircuitBreaker":            true,
	gobreakerV1 + ".TwoStepCircuitBreaker":     true,
	gobreakerV2 + ".CircuitBreaker":            true,
	gobreakerV2 + ".TwoStepCircuitBreaker":     true,
	gobreakerV2 + ".DistributedCircuitBreaker": true,
	failsafeCB + ".CircuitBreaker":             true,
	eapache + ".Breaker":                       true,
	ResilPath + ".Breaker":                     true,
}

func recvGuard(op int) Guard { return Guard{From: FromReceiver, Name: None, Op: op} }

func (g Guard) resil(m string) Guard { g.Resil = m; return g }

var guards = map[string]Guard{
	// gobreaker v1: Execute(func() (interface{}, error)) has the shape of
	// resil's Execute, and TwoStep Allow() (done func(bool), error) that of
	// resil's Allow.
	"(*" + gobreakerV1 + ".CircuitBreaker).Execute":      recvGuard(0).resil("Execute"),
	"(*" + gobreakerV1 + ".TwoStepCircuitBreaker).Allow": recvGuard(None).resil("Allow"),
	// gobreaker v2 is generic over the result: no mechanical rewrite.
	"(*" + gobreakerV2 + ".CircuitBreaker[T]).Execute":            recvGuard(0),
	"(*" + gobreakerV2 + ".TwoStepCircuitBreaker[T]).Allow":       recvGuard(None),
	"(*" + gobreakerV2 + ".DistributedCircuitBreaker[T]).Execute": recvGuard(0),

	// failsafe-go: failsafe.With(cb, ...).Get/Run(...).
	"(" + failsafe + ".Executor[R any]).Get":                   {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).Run":                   {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).GetWithExecution":      {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).RunWithExecution":      {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).GetAsync":              {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).RunAsync":              {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).GetAsyncWithExecution": {From: FromExecutor, Name: None, Op: 0},
	"(" + failsafe + ".Executor[R any]).RunAsyncWithExecution": {From: FromExecutor, Name: None, Op: 0},

	// eapache/go-resiliency.
	"(*" + eapache + ".Breaker).Run": recvGuard(0),
	"(*" + eapache + ".Breaker).Go":  recvGuard(0),

	// hystrix-go: the command name is the breaker.
	hystrix + ".Do":  {From: FromName, Name: 0, Op: 1},
	hystrix + ".Go":  {From: FromName, Name: 0, Op: 1},
	hystrix + ".DoC": {From: FromName, Name: 1, Op: 2},
	hystrix + ".GoC": {From: FromName, Name: 1, Op: 2},

	// resil.
	"(*" + ResilPath + ".Breaker).Do":      recvGuard(1).resil("Do"),
	"(*" + ResilPath + ".Breaker).Execute": recvGuard(0).resil("Execute"),
	"(*" + ResilPath + ".Breaker).Allow":   recvGuard(None).resil("Allow"),
}

var ctors = map[string]Ctor{
	gobreakerV1 + ".NewCircuitBreaker":            {Settings: 0},
	gobreakerV1 + ".NewTwoStepCircuitBreaker":     {Settings: 0},
	gobreakerV2 + ".NewCircuitBreaker":            {Settings: 0},
	gobreakerV2 + ".NewTwoStepCircuitBreaker":     {Settings: 0},
	gobreakerV2 + ".NewDistributedCircuitBreaker": {Settings: 1},
	// failsafe-go opens after a single failure unless told otherwise.
	failsafeCB + ".NewWithDefaults":             {Settings: None, Default: true},
	failsafeCB + ".NewBuilder":                  {Settings: None, Default: true, Builder: true},
	"(" + failsafeCB + ".Builder[R any]).Build": {Settings: None, FromBuilder: true},
	eapache + ".New":                            {Settings: None},
	ResilPath + ".NewBreaker":                   {Settings: None},
}

var registries = map[string]int{
	ResilPath + ".BreakerFor": 0,
}

var executors = map[string]int{
	failsafe + ".With":    0,
	failsafe + ".WithAny": 0,
}

var executorMethods = map[string]bool{
	"(" + failsafe + ".Executor[R any]).WithContext": true,
	"(" + failsafe + ".Executor[R any]).OnDone":      true,
	"(" + failsafe + ".Executor[R any]).OnSuccess":   true,
	"(" + failsafe + ".Executor[R any]).OnFailure":   true,
	"(" + failsafe + ".Executor[R any]).Compose":     true,
	"(" + failsafe + ".Executor[R any]).ComposeAny":  true,
}

var executorComposers = map[string]bool{
	"(" + failsafe + ".Executor[R any]).Compose":    true,
	"(" + failsafe + ".Executor[R any]).ComposeAny": true,
}

var breakerSettings = map[string]Setting{
	// gobreaker: ReadyToTrip(Counts) decides; nil is the default, more
	// than 5 consecutive failures. MaxRequests caps half-open probes (0: 1).
	gobreakerV1 + ".Settings.ReadyToTrip": {Kind: TripFunc, Arg: None},
	gobreakerV1 + ".Settings.MaxRequests": {Kind: Probes, Arg: None, ZeroIsDefault: true},
	gobreakerV2 + ".Settings.ReadyToTrip": {Kind: TripFunc, Arg: None},
	gobreakerV2 + ".Settings.MaxRequests": {Kind: Probes, Arg: None, ZeroIsDefault: true},

	// hystrix: 0 means the default (20 requests, 50 %).
	hystrix + ".CommandConfig.ErrorPercentThreshold":  {Kind: TripCount, Arg: None, ZeroIsDefault: true},
	hystrix + ".CommandConfig.RequestVolumeThreshold": {Kind: TripCount, Arg: None, ZeroIsDefault: true, Volume: true},
	hystrix + ".DefaultErrorPercentThreshold":         {Kind: TripCount, Arg: None},
	hystrix + ".DefaultVolumeThreshold":               {Kind: TripCount, Arg: None, Volume: true},
}

var breakerOptions = map[string]Setting{
	"(" + failsafeCB + ".Builder[R any]).WithFailureThreshold":       {Kind: TripCount, Arg: 0},
	"(" + failsafeCB + ".Builder[R any]).WithFailureThresholdRatio":  {Kind: TripCount, Arg: 0},
	"(" + failsafeCB + ".Builder[R any]).WithFailureThresholdPeriod": {Kind: TripCount, Arg: 0},
	"(" + failsafeCB + ".Builder[R any]).WithFailureRateThreshold":   {Kind: Threshold, Arg: 0},
	"(" + failsafeCB + ".Builder[R any]).WithSuccessThreshold":       {Kind: Probes, Arg: 0},
	"(" + failsafeCB + ".Builder[R any]).WithSuccessThresholdRatio":  {Kind: Probes, Arg: 1},
	eapache + ".New":              {Kind: TripCount, Arg: 0},
	ResilPath + ".HalfOpenProbes": {Kind: Probes, Arg: 0},
	// resil trips when the window holds at least MinimumThroughput calls
	// (below 1 counts as 1) and FailureRatio of them failed.
	ResilPath + ".MinimumThroughput": {Kind: TripCount, Arg: 0, BelowOneIsOne: true, Volume: true},
}

// CountsSample is one situation of a breaker's counts that must not trip
// it: the value of each field, when it happens and why it must not trip.
type CountsSample struct {
	Values map[string]int64
	// When completes "it is true when ...".
	When string
	// Why completes "...: <why>; trip on ...".
	Why string
}

// oneInAThousand: the last of a thousand requests failed.
var oneInAThousand = CountsSample{
	Values: map[string]int64{
		"Requests":             1000,
		"TotalSuccesses":       999,
		"TotalFailures":        1,
		"TotalExclusions":      0,
		"ConsecutiveSuccesses": 0,
		"ConsecutiveFailures":  1,
	},
	When: "1 of 1000 requests failed",
	Why:  "one timeout in a thousand requests should not trip it",
}

// gobreakerFresh: gobreaker clears its counts at start, every Interval and
// on every state change; the first request after that failed.
var gobreakerFresh = CountsSample{
	Values: map[string]int64{
		"Requests":             1,
		"TotalSuccesses":       0,
		"TotalFailures":        1,
		"TotalExclusions":      0,
		"ConsecutiveSuccesses": 0,
		"ConsecutiveFailures":  1,
	},
	When: "the first request after the counts are cleared failed: gobreaker clears them at start, every Interval and on every state change, so a failure ratio without a minimum number of requests is 100% after one failure",
	Why:  "one failed request should not trip it",
}

var breakerCounts = map[string][]CountsSample{
	gobreakerV1 + ".Counts": {oneInAThousand, gobreakerFresh},
	gobreakerV2 + ".Counts": {oneInAThousand, gobreakerFresh},
}

var targets = map[string]int{
	"net/http.NewRequest":             1,
	"net/http.NewRequestWithContext":  2,
	"(*net/http.Request).WithContext": -1,
	"(*net/http.Request).Clone":       -1,
	"net/url.Parse":                   0,
	"net/url.ParseRequestURI":         0,
	"net/url.JoinPath":                0,
	"(*net/url.URL).JoinPath":         -1,
	"(*net/url.URL).String":           -1,
	"(*net/url.URL).ResolveReference": -1,
	"(*net/url.URL).Parse":            -1,
	"path.Join":                       0,
	"strings.TrimSuffix":              0,
	"strings.TrimRight":               0,
	"net.JoinHostPort":                0,
}

func defaultBreakers() BreakerTable {
	return BreakerTable{
		Types:             maps.Clone(breakerTypes),
		Guards:            maps.Clone(guards),
		Ctors:             maps.Clone(ctors),
		Registries:        maps.Clone(registries),
		Executors:         maps.Clone(executors),
		ExecutorMethods:   maps.Clone(executorMethods),
		ExecutorComposers: maps.Clone(executorComposers),
		Settings:          maps.Clone(breakerSettings),
		Options:           maps.Clone(breakerOptions),
		Counts:            maps.Clone(breakerCounts),
		Targets:           maps.Clone(targets),
		Runtime:           Runtime{Path: ResilPath, Name: "resil", Func: "BreakerFor"},
	}
}

// Paths returns the import paths the breaker rows mention, for fast paths.
func (b *BreakerTable) Paths() map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string]bool{b.Types, b.ExecutorMethods} {
		for k := range m {
			addPath(out, k)
		}
	}
	for k := range b.Guards {
		addPath(out, k)
	}
	for k := range b.Ctors {
		addPath(out, k)
	}
	for k := range b.Registries {
		addPath(out, k)
	}
	for k := range b.Executors {
		addPath(out, k)
	}
	return out
}

func addPath(set map[string]bool, key string) {
	if p := PathOf(key); p != "" {
		set[p] = true
	}
}
