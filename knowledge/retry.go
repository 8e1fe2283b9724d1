package knowledge

import (
	"maps"
	"slices"
)

// Rows for retry code: the time functions retry loops wait with, the sources
// of jitter, the known retry helpers and the functions that configure them,
// listener Accept methods (server loops, not retries), and what tells an HTTP
// status or a gRPC code apart.

// RetryTable lists what the retry-loop model needs to know about APIs.
type RetryTable struct {
	// Sleeps: functions that block for a duration (time.Sleep, resil.Sleep).
	Sleeps map[string]SleepFunc
	// Timers: time functions whose result a loop waits on (time.After,
	// time.NewTimer, (*time.Timer).Reset) or polls with (time.Tick,
	// time.NewTicker).
	Timers map[string]TimerFunc
	// Random: functions whose result is random: a duration computed from one
	// is jittered.
	Random map[string]bool
	// Delays: functions that return a retry delay, and how it varies.
	Delays map[string]DelayFunc
	// Helpers: functions that call an operation until it succeeds or gives up.
	Helpers map[string]RetryHelper
	// Configs: functions that build or change a retry helper's
	// configuration (backoff policies, options, builders, clients).
	Configs map[string]RetryConfig
	// ConfigTypes: types whose values configure a retry helper, for values
	// whose construction is out of sight (a struct field) or a composite
	// literal, keyed by "path.Name".
	ConfigTypes map[string]RetryType
	// DelayFuncs: functions passed as a delay strategy (retry-go's
	// DelayType(retry.FixedDelay)), and how their delay varies.
	DelayFuncs map[string]Variation
	// Stops: package-level sentinels a delay source returns to say "give up"
	// (cenkalti/backoff Stop): a loop that leaves on one has a bound.
	Stops map[string]bool
	// Accept: methods that accept a connection on a listener; a loop that
	// goes round when they fail is a server loop, not a retry loop.
	Accept map[string]bool
	// LocalPackages and LocalCalls fail for local reasons, not because a
	// dependency is down: a loop that repeats them is not a retry of a
	// dependency (parsing, formatting; the file system and the kernel;
	// in-process work; binding a port while the previous process lets go
	// of it). A function whose calls all stay on this machine is local
	// work too (issue 13, rule 1).
	LocalPackages map[string]bool
	LocalCalls    map[string]bool
	// Serves: calls that serve until their server stops
	// ((*net/http.Server).ListenAndServe, (*grpc.Server).Serve): a loop
	// that calls one again after it returns restarts a server, it retries
	// no operation.
	Serves map[string]bool
	// CredentialRefresh: functions that fetch fresh credentials (an OAuth2
	// token source's Token, an AWS credentials cache's Invalidate): a retry
	// loop that calls one before it goes round sends other credentials.
	CredentialRefresh map[string]bool
	// JitterHints say, per retry library, how to add jitter with its own
	// API, for sleepretry's message; the first row whose path prefix
	// matches the helper's package applies.
	JitterHints []JitterHint
	// Predicates: where a retry predicate is handed to a retry helper: a
	// function whose true result retries the outcome it is given
	// (retry-go's RetryIf option, retryablehttp's Client.CheckRetry field,
	// failsafe's HandleIf on a retry policy builder). Functions and methods
	// are keyed by FullName, fields by "path.Type.Field".
	Predicates map[string]RetryPredicate
	// StatusFields: integer fields that hold an HTTP status, "path.Type.Field";
	// StatusMethods: methods without arguments that return one.
	StatusFields  map[string]bool
	StatusMethods map[string]bool
	// StatusPkg is the package whose Status* constants name HTTP statuses.
	StatusPkg string
	// CodeType is the "path.Name" of the gRPC status code type.
	CodeType string
	// FromError: functions returning (status, ok) for an error, where ok is
	// true for nil and for status errors (status.FromError).
	FromError map[string]bool
	// PermanentCodes are the gRPC codes that fail the same way when retried,
	// by name; TransientCodes and TransientStatuses are the failures a
	// retry loop retries (one of them going round makes a loop a retry loop).
	PermanentCodes    map[string]int
	TransientCodes    []int
	TransientStatuses []int
	// CodeNames names the gRPC codes by value.
	CodeNames map[int]string
	// ContextErrs are the package-level errors a context reports when done.
	ContextErrs map[string]bool
}

// Variation is how a retry delay changes from one attempt to the next.
type Variation uint8

const (
	// VaryUnknown: nothing is known (a function field, an interface).
	VaryUnknown Variation = iota
	// Invariant: the same delay before every attempt (fixed backoff).
	Invariant
	// Grows: the delay changes (grows) but deterministically: no jitter.
	Grows
	// Randomised: the delay is drawn at random (jitter).
	Randomised
)

func (v Variation) String() string {
	switch v {
	case Invariant:
		return "invariant"
	case Grows:
		return "grows"
	case Randomised:
		return "randomised"
	}
	return "unknown"
}

// SleepFunc describes a function that blocks for a duration.
type SleepFunc struct {
	// Dur is the index of the duration argument.
	Dur int
	// Ctx is the index of a context argument the sleep returns early on, or
	// None (time.Sleep ignores every context).
	Ctx int
}

// TimerKind says what a time function's result is to a loop.
type TimerKind uint8

const (
	// After: a channel that receives once after the duration (time.After).
	After TimerKind = iota + 1
	// NewTimer: a *time.Timer whose channel C receives once.
	NewTimer
	// Reset: (*time.Timer).Reset: the receiver's channel receives again.
	Reset
	// Ticker: a ticker or time.Tick channel: a loop waiting on it polls.
	Ticker
)

// TimerFunc describes a time function.
type TimerFunc struct {
	Kind TimerKind
	// Dur is the index of the duration argument.
	Dur int
}

// DelayFunc describes a function or method returning a retry delay.
type DelayFunc struct {
	// Vary is how the delay varies; VaryUnknown with FromRecv set means it
	// depends on the receiver's configuration (an interface's NextBackOff).
	Vary     Variation
	FromRecv bool
}

// RetryHelper describes a function that retries an operation.
type RetryHelper struct {
	// Lib names the helper in messages ("backoff.Retry").
	Lib string
	// Op is the index of the operation argument, or None: then every
	// function-valued argument is an operation.
	Op int
	// Ctx is the index of a context argument the helper observes, or None.
	Ctx int
	// Policy is the index of an argument holding the configuration (a
	// cenkalti BackOff), or None.
	Policy int
	// Opts is the index of the first option argument (variadic), or None.
	Opts int
	// Recv: the receiver holds the configuration (a retryablehttp.Client, a
	// retrier.Retrier, a failsafe Executor).
	Recv bool
	// Attempts is the number of attempts when the configuration does not
	// set it (0: unknown or unlimited by count).
	Attempts int
	// Delay is how the wait varies when the configuration does not set it.
	Delay Variation
	// TimeLimit: by default the helper stops after an elapsed time
	// (cenkalti/backoff v5: 15 minutes).
	TimeLimit bool
	// Unlimited: by default the helper has no attempt limit (cenkalti/backoff
	// v5: WithMaxTries not given); its time limit or a context stops it.
	Unlimited bool
	// NeedsPolicy: the helper retries only if its configuration holds a
	// retry policy (a failsafe executor holding only a circuit breaker
	// makes one attempt).
	NeedsPolicy bool
	// Resil: resilint's own runtime, which makes a nested Retry on a context
	// it marked attempt once.
	Resil bool
	// ChosenDelay: calling this helper chooses its Delay (go-retry's
	// Constant(ctx, d, f)), so a fixed or unjittered one is reported on
	// the call. Otherwise Delay is a library default, not reported.
	ChosenDelay bool
	// Stops are the functions that mark an error the helper does not retry
	// (cenkalti's backoff.Permanent): the helper retries every other error
	// its operation returns, so an operation that returns a plain error
	// for a permanent failure has it retried. Empty when the helper's
	// errors are not all retried (or which are is out of sight).
	Stops []string
}

// RetryPredicate describes a place a retry predicate is handed over: an
// argument of a function or method, or a struct field. The predicate's
// first result is a bool, true for "retry"; its error parameter receives
// the failure, its other parameters but a context the outcome (a response,
// which may carry any status when the predicate also sees successes).
type RetryPredicate struct {
	// Lib names the place in messages ("retry.RetryIf").
	Lib string
	// Arg is the index of the predicate argument, or None for a field.
	Arg int
	// Recv is the "path.Name" of the type a method's receiver must have,
	// or "" for any: failsafe's HandleIf is a method of every failure
	// policy builder, and only a retry policy's predicate retries (a
	// circuit breaker's counts failures).
	Recv string
}

// RetryConfig describes a function that builds or changes the
// configuration of a retry helper. Indices are None when absent.
type RetryConfig struct {
	// From is the index of an argument whose configuration this one extends
	// (WithMaxRetries(b, n), WithContext(b, ctx), WithBackOff(b),
	// retrier.New(backoffs, c)).
	From int
	// Chain: a method extending its receiver's configuration (a builder).
	Chain bool
	// Policies is the index of the first of variadic policy arguments; the
	// result retries if one of them does (failsafe.With).
	Policies int
	// Count is the index of an attempt-count argument; the attempts are the
	// count plus Plus (WithMaxRetries(b, 2): 3 attempts). ZeroUnlimited and
	// NegUnlimited say which counts mean "no limit".
	Count                       int
	Plus                        int
	ZeroUnlimited, NegUnlimited bool
	// Attempts: the attempts this sets (a builder's default); 0: none.
	Attempts int
	// Unlimited: no limit on attempts (UntilSucceeded, WithInfiniteRetry,
	// a cenkalti ConstantBackOff handed to v4 Retry).
	Unlimited bool
	// TimeLimit: stops after an elapsed time (ExponentialBackOff's
	// MaxElapsedTime, failsafe WithMaxDuration).
	TimeLimit bool
	// ZeroNoTimeLimit is the index of a duration argument whose zero value
	// removes the elapsed-time limit (WithMaxElapsedTime(0)), or None.
	ZeroNoTimeLimit int
	// Delay is how the wait varies under this configuration; 0: unchanged.
	// UnknownDelay: the wait comes from a function of the caller's
	// (WithDelayFunc): unknown.
	Delay        Variation
	UnknownDelay bool
	// DelayArg is the index of an argument naming a delay strategy
	// (retry-go DelayType(f)), or None.
	DelayArg int
	// ZeroNoJitter is the index of a randomisation-factor argument whose
	// zero value removes the jitter (WithRandomizationFactor(0)), or None.
	ZeroNoJitter int
	// Jitter: adds jitter to whatever delay is configured.
	Jitter bool
	// Ctx is the index of a context argument the helper observes, or None.
	Ctx int
	// CtxRecv: a method that gives the receiver a context.
	CtxRecv bool
	// Retries: the value is a retry policy (it makes the helper retry).
	Retries bool
	// Opts is the index of the first variadic option argument of a
	// constructor (NewExponentialBackOff(opts...)), or None.
	Opts int
	// Site: the result is a complete configuration that can only be used
	// to retry (a failsafe retry policy's Build, retrier.New): a fixed
	// delay is reported here even when the helper using it is out of sight.
	Site bool
}

// RetryType describes a configuration type.
type RetryType struct {
	// Retries: a value of the type makes its helper retry.
	Retries bool
	// CountField is the field holding the attempt count, in a composite
	// literal or a field assignment; the attempts are its value plus Plus
	// (retryablehttp.Client.RetryMax). A literal without it has the count 0.
	CountField string
	Plus       int
	// Delay is how the wait of a value of the type varies (a cenkalti
	// ConstantBackOff: Invariant); 0: unknown.
	Delay Variation
	// JitterField names a field whose non-zero value in a composite literal
	// randomises the wait (ExponentialBackOff.RandomizationFactor); a
	// literal without it has Delay.
	JitterField string
	// LiteralOnly: Delay holds for composite literals only (a value built
	// out of sight may have set the jitter field).
	LiteralOnly bool
	// DelayField names a field holding the delay strategy, a function
	// (retryablehttp.Client.Backoff): a value assigned to it sets how the
	// wait varies, read as a DelayFuncs row or a function that returns one
	// constant.
	DelayField string
}

// JitterHint is how to add jitter with one retry library.
type JitterHint struct {
	// Prefix is an import-path prefix of the library (every major version).
	Prefix string
	// Hint is the advice for a delay that grows without jitter; Keep the
	// advice for a constant delay, which keeps the interval (a deliberate
	// wait) and randomises it rather than switching to a default policy
	// that shortens it. {pkg} stands for the package as the file imports it.
	Hint string
	Keep string
	// Noun names the library's retry value in messages ("this retrier"),
	// where a call site does not name it; empty for the default.
	Noun string
}

var jitterHints = []JitterHint{
	{Prefix: "github.com/cenkalti/backoff", Hint: "use {pkg}.NewExponentialBackOff(), whose delays are randomised",
		Keep: "keep the interval and randomise it: {pkg}.NewExponentialBackOff({pkg}.WithInitialInterval(interval), {pkg}.WithMultiplier(1)) waits the interval ±50%"},
	{Prefix: pathRetryGo, Hint: "use {pkg}.DelayType({pkg}.FullJitterBackoffDelay), or the default (BackOffDelay with RandomDelay)",
		Keep: "keep the delay and randomise it: {pkg}.DelayType({pkg}.CombineDelay({pkg}.FixedDelay, {pkg}.RandomDelay)) with {pkg}.MaxJitter"},
	{Prefix: pathFailsafe, Hint: "use WithBackoff(delay, maxDelay) with WithJitterFactor(0.5)",
		Keep: "keep the delay and add WithJitterFactor(0.5), which randomises each wait by ±50%"},
	{Prefix: pathGoRetry, Hint: "wrap the backoff in {pkg}.WithFullJitter(...) (or {pkg}.WithJitterPercent)",
		Keep: "keep the interval and wrap the backoff in {pkg}.WithJitterPercent(50, ...), which randomises each wait by ±50%"},
	{Prefix: pathHTTP, Hint: "use {pkg}.LinearJitterBackoff, whose waits are randomised",
		Keep: "keep the interval and randomise it: return half of it plus a random share of it (math/rand/v2)", Noun: "this retryablehttp client"},
	{Prefix: "github.com/eapache/go-resiliency", Hint: "use {pkg}.ExponentialBackoff and call SetJitter on the retrier",
		Keep: "keep the constant backoff and call SetJitter(0.5) on the retrier, which randomises each wait by ±50%", Noun: "this retrier"},
}

// Import paths of the libraries the rows describe.
const (
	pathResil     = "github.com/resilint/resilint/resil"
	pathRetryGo   = "github.com/avast/retry-go"
	pathHTTP      = "github.com/hashicorp/go-retryablehttp"
	pathFailsafe  = "github.com/failsafe-go/failsafe-go"
	pathRetrier   = "github.com/eapache/go-resiliency/retrier"
	pathGRPCCodes = "google.golang.org/grpc/codes"
	pathGoRetry   = "github.com/sethvargo/go-retry"
)

// cenkaltiPaths are the import paths of cenkalti/backoff versions with the
// v4 API (Retry(op, b), WithMaxRetries(b, n)).
var cenkaltiPaths = []string{
	"github.com/cenkalti/backoff",
	"github.com/cenkalti/backoff/v3",
	"github.com/cenkalti/backoff/v4",
}

const cenkaltiV5 = "github.com/cenkalti/backoff/v5"

// retryGoPaths are the import paths of avast/retry-go versions.
var retryGoPaths = []string{pathRetryGo, pathRetryGo + "/v3", pathRetryGo + "/v4"}

func helper(lib string) RetryHelper {
	return RetryHelper{Lib: lib, Op: None, Ctx: None, Policy: None, Opts: None}
}

func (h RetryHelper) op(i int) RetryHelper       { h.Op = i; return h }
func (h RetryHelper) ctx(i int) RetryHelper      { h.Ctx = i; return h }
func (h RetryHelper) policy(i int) RetryHelper   { h.Policy = i; return h }
func (h RetryHelper) opts(i int) RetryHelper     { h.Opts = i; return h }
func (h RetryHelper) recv() RetryHelper          { h.Recv = true; return h }
func (h RetryHelper) attempts(n int) RetryHelper { h.Attempts = n; return h }
func (h RetryHelper) stops(fs ...string) RetryHelper {
	h.Stops = fs
	return h
}
func (h RetryHelper) delay(v Variation) RetryHelper {
	h.Delay = v
	return h
}

func config() RetryConfig {
	return RetryConfig{From: None, Policies: None, Count: None, ZeroNoTimeLimit: None, DelayArg: None, ZeroNoJitter: None, Ctx: None, Opts: None}
}

func (c RetryConfig) from(i int) RetryConfig { c.From = i; return c }
func (c RetryConfig) chain() RetryConfig     { c.Chain = true; return c }
func (c RetryConfig) count(i, plus int) RetryConfig {
	c.Count, c.Plus = i, plus
	return c
}
func (c RetryConfig) delay(v Variation) RetryConfig { c.Delay = v; return c }
func (c RetryConfig) ctx(i int) RetryConfig         { c.Ctx = i; return c }
func (c RetryConfig) retries() RetryConfig          { c.Retries = true; return c }
func (c RetryConfig) site() RetryConfig             { c.Site = true; return c }

var sleeps = map[string]SleepFunc{
	"time.Sleep":         {Dur: 0, Ctx: None},
	pathResil + ".Sleep": {Dur: 1, Ctx: 0},
}

var timers = map[string]TimerFunc{
	"time.After":           {Kind: After, Dur: 0},
	"time.NewTimer":        {Kind: NewTimer, Dur: 0},
	"(*time.Timer).Reset":  {Kind: Reset, Dur: 0},
	"time.Tick":            {Kind: Ticker, Dur: 0},
	"time.NewTicker":       {Kind: Ticker, Dur: 0},
	"(*time.Ticker).Reset": {Kind: Ticker, Dur: 0},
	"time.AfterFunc":       {Kind: Ticker, Dur: 0}, // a callback, not a wait: never a retry sleep
}

func randomRows() map[string]bool {
	m := map[string]bool{}
	for _, f := range []string{"Int", "Intn", "Int31", "Int31n", "Int63", "Int63n", "Uint32", "Uint64",
		"Float32", "Float64", "ExpFloat64", "NormFloat64", "Perm"} {
		m["math/rand."+f] = true
		m["(*math/rand.Rand)."+f] = true
	}
	for _, f := range []string{"Int", "IntN", "Int32", "Int32N", "Int64", "Int64N", "Uint", "UintN",
		"Uint32", "Uint32N", "Uint64", "Uint64N", "Float32", "Float64", "ExpFloat64", "NormFloat64", "N", "Perm"} {
		m["math/rand/v2."+f] = true
		m["(*math/rand/v2.Rand)."+f] = true
	}
	m["crypto/rand.Int"] = true
	return m
}

func delayRows() map[string]DelayFunc {
	m := map[string]DelayFunc{
		pathResil + ".Backoff": {Vary: Randomised},
	}
	for _, p := range append(append([]string(nil), cenkaltiPaths...), cenkaltiV5) {
		m["(*"+p+".ExponentialBackOff).NextBackOff"] = DelayFunc{Vary: Randomised}
		m["(*"+p+".ConstantBackOff).NextBackOff"] = DelayFunc{Vary: Invariant}
		m["(*"+p+".ZeroBackOff).NextBackOff"] = DelayFunc{Vary: Invariant}
		m["("+p+".BackOff).NextBackOff"] = DelayFunc{FromRecv: true}
		m["("+p+".BackOffContext).NextBackOff"] = DelayFunc{FromRecv: true}
	}
	return m
}

func helperRows() map[string]RetryHelper {
	m := map[string]RetryHelper{}
	for _, p := range cenkaltiPaths {
		for _, f := range []string{"Retry", "RetryNotify", "RetryWithData", "RetryNotifyWithData",
			"RetryNotifyWithTimer", "RetryNotifyWithTimerAndData"} {
			m[p+"."+f] = helper("backoff." + f).op(0).policy(1).stops(p + ".Permanent")
		}
	}
	v5 := helper("backoff.Retry").ctx(0).op(1).opts(2).delay(Randomised).stops(cenkaltiV5 + ".Permanent")
	v5.TimeLimit = true
	v5.Unlimited = true
	m[cenkaltiV5+".Retry"] = v5
	for _, p := range retryGoPaths {
		m[p+".Do"] = helper("retry.Do").op(0).opts(1).attempts(10).delay(Randomised)
		m[p+".DoWithData"] = helper("retry.DoWithData").op(0).opts(1).attempts(10).delay(Randomised)
	}
	// retryablehttp: the package-level functions use a default client
	// (RetryMax 4: 5 attempts); the methods read the receiver.
	for _, f := range []string{"Get", "Head", "Post", "PostForm"} {
		m[pathHTTP+"."+f] = helper("retryablehttp." + f).attempts(5).delay(Grows)
	}
	for _, f := range []string{"Do", "Get", "Head", "Post", "PostForm"} {
		m["(*"+pathHTTP+".Client)."+f] = helper("retryablehttp (*Client)." + f).recv()
	}
	// failsafe-go executors; older releases also had failsafe.Get/Run.
	for _, f := range []string{"Get", "Run", "GetWithExecution", "RunWithExecution", "GetAsync", "RunAsync",
		"GetAsyncWithExecution", "RunAsyncWithExecution"} {
		h := helper("failsafe Executor." + f).op(0).recv()
		h.NeedsPolicy = true
		m["("+pathFailsafe+".Executor[R any])."+f] = h
	}
	for _, f := range []string{"Get", "Run"} {
		h := helper("failsafe." + f).op(0).opts(1)
		h.NeedsPolicy = true
		m[pathFailsafe+"."+f] = h
	}
	m["(*"+pathRetrier+".Retrier).Run"] = helper("retrier.Run").op(0).recv()
	m["(*"+pathRetrier+".Retrier).RunCtx"] = helper("retrier.RunCtx").ctx(0).op(1).recv()
	m["(*"+pathRetrier+".Retrier).RunFn"] = helper("retrier.RunFn").ctx(0).op(1).recv()
	// sethvargo/go-retry: Do(ctx, b, f); the shortcuts make an unlimited
	// backoff of their own (Constant(ctx, d, f)).
	m[pathGoRetry+".Do"] = helper("retry.Do").ctx(0).policy(1).op(2)
	m[pathGoRetry+".DoValue"] = helper("retry.DoValue").ctx(0).policy(1).op(2)
	for f, v := range map[string]Variation{"Constant": Invariant, "Exponential": Grows, "Fibonacci": Grows} {
		h := helper("retry." + f).ctx(0).op(2).delay(v)
		h.Unlimited, h.ChosenDelay = true, true
		m[pathGoRetry+"."+f] = h
	}
	r := helper("resil.Retry").ctx(0).op(1).opts(2).attempts(3).delay(Randomised)
	r.Resil = true
	m[pathResil+".Retry"] = r
	r.Lib = "resil.RetryValue"
	m[pathResil+".RetryValue"] = r
	return m
}

func configRows() map[string]RetryConfig {
	m := map[string]RetryConfig{}
	for _, p := range cenkaltiPaths {
		m[p+".WithMaxRetries"] = config().from(0).count(1, 1)
		m[p+".WithContext"] = config().from(0).ctx(1)
		exp := config().retries().delay(Randomised)
		exp.TimeLimit = true
		exp.Unlimited = true // no attempt limit: MaxElapsedTime stops it
		exp.Opts = 0
		m[p+".NewExponentialBackOff"] = exp
		cst := config().retries().delay(Invariant)
		cst.Unlimited = true
		m[p+".NewConstantBackOff"] = cst
		noJitter := config()
		noJitter.ZeroNoJitter = 0
		m[p+".WithRandomizationFactor"] = noJitter
		noLimit := config()
		noLimit.ZeroNoTimeLimit = 0
		m[p+".WithMaxElapsedTime"] = noLimit
	}
	m[cenkaltiV5+".WithBackOff"] = config().from(0)
	m[cenkaltiV5+".WithMaxTries"] = config().count(0, 0)
	m[cenkaltiV5+".NewExponentialBackOff"] = config().retries().delay(Randomised)
	m[cenkaltiV5+".NewConstantBackOff"] = config().retries().delay(Invariant)
	v5limit := config()
	v5limit.ZeroNoTimeLimit = 0
	m[cenkaltiV5+".WithMaxElapsedTime"] = v5limit

	for _, p := range retryGoPaths {
		a := config().count(0, 0)
		a.ZeroUnlimited = true
		m[p+".Attempts"] = a
		u := config()
		u.Unlimited = true
		m[p+".UntilSucceeded"] = u
		m[p+".Context"] = config().ctx(0)
		d := config()
		d.DelayArg = 0
		m[p+".DelayType"] = d
	}

	// A client is built to retry: a delay strategy set on it is reported
	// where it is built, even when its requests are sent out of sight.
	m[pathHTTP+".NewClient"] = RetryConfig{From: None, Policies: None, Count: None, ZeroNoTimeLimit: None, DelayArg: None,
		ZeroNoJitter: None, Ctx: None, Opts: None, Retries: true, Attempts: 5, Site: true}

	rp := pathFailsafe + "/retrypolicy"
	b := config().retries()
	b.Attempts = 3
	m[rp+".NewBuilder"] = b
	m[rp+".NewWithDefaults"] = b
	builder := "(" + rp + ".Builder[R any])."
	mr := config().chain().count(0, 1)
	mr.NegUnlimited = true
	m[builder+"WithMaxRetries"] = mr
	ma := config().chain().count(0, 0)
	ma.NegUnlimited = true
	m[builder+"WithMaxAttempts"] = ma
	md := config().chain()
	md.TimeLimit = true
	m[builder+"WithMaxDuration"] = md
	m[builder+"WithBackoff"] = config().chain().delay(Grows)
	m[builder+"WithBackoffFactor"] = config().chain().delay(Grows)
	m[builder+"WithRandomDelay"] = config().chain().delay(Randomised)
	j := config().chain()
	j.Jitter = true
	m[builder+"WithJitter"] = j
	m[builder+"WithJitterFactor"] = j
	m["("+pathFailsafe+".DelayablePolicyBuilder[S, R any]).WithDelay"] = config().chain().delay(Invariant)
	df := config().chain()
	df.UnknownDelay = true
	m["("+pathFailsafe+".DelayablePolicyBuilder[S, R any]).WithDelayFunc"] = df
	for _, f := range []string{"HandleErrors", "HandleErrorTypes", "HandleResult", "HandleIf", "OnSuccess", "OnFailure"} {
		m["("+pathFailsafe+".FailurePolicyBuilder[S, R any])."+f] = config().chain()
	}
	for _, f := range []string{"AbortOnResult", "AbortOnErrors", "AbortOnErrorTypes", "AbortIf", "ReturnLastFailure",
		"WithBudget", "OnAbort", "OnRetryScheduled", "OnRetry", "OnRetriesExceeded"} {
		m[builder+f] = config().chain()
	}
	with := config()
	with.Policies = 0
	m[pathFailsafe+".With"] = with
	exec := "(" + pathFailsafe + ".Executor[R any])."
	for _, f := range []string{"OnDone", "OnSuccess", "OnFailure"} {
		m[exec+f] = config().chain()
	}
	wc := config().chain()
	wc.CtxRecv = true
	m[exec+"WithContext"] = wc
	comp := config().chain()
	comp.Policies = 0
	m[exec+"Compose"] = comp

	m[pathRetrier+".ConstantBackoff"] = config().count(0, 1).delay(Invariant)
	m[pathRetrier+".ExponentialBackoff"] = config().count(0, 1).delay(Grows)
	m[pathRetrier+".LimitedExponentialBackoff"] = config().count(0, 1).delay(Grows)
	inf := config().chain()
	inf.Unlimited = true
	m["(*"+pathRetrier+".Retrier).WithInfiniteRetry"] = inf
	m["(*"+pathRetrier+".Retrier).WithSurfaceWorkErrors"] = config().chain()
	rj := config().chain()
	rj.Jitter = true
	m["(*"+pathRetrier+".Retrier).SetJitter"] = rj
	m[pathRetrier+".New"] = config().from(0).retries().site()
	m[builder+"Build"] = config().chain().site()

	for _, f := range []string{"Attempts", "WithAttempts", "MaxAttempts", "WithMaxAttempts"} {
		m[pathResil+"."+f] = config().count(0, 0)
	}

	// sethvargo/go-retry: backoffs retry without limit until wrapped;
	// middlewares take the backoff they wrap last.
	for f, v := range map[string]Variation{"NewConstant": Invariant, "NewExponential": Grows, "NewFibonacci": Grows} {
		c := config().retries().delay(v)
		c.Unlimited = true
		m[pathGoRetry+"."+f] = c
	}
	m[pathGoRetry+".WithMaxRetries"] = config().from(1).count(0, 1)
	gj := config().from(1)
	gj.Jitter = true
	m[pathGoRetry+".WithJitter"] = gj
	m[pathGoRetry+".WithJitterPercent"] = gj
	fj := config().from(0)
	fj.Jitter = true
	m[pathGoRetry+".WithFullJitter"] = fj
	m[pathGoRetry+".WithCappedDuration"] = config().from(1)
	gd := config().from(1)
	gd.TimeLimit = true
	m[pathGoRetry+".WithMaxDuration"] = gd
	return m
}

func configTypeRows() map[string]RetryType {
	m := map[string]RetryType{
		pathHTTP + ".Client":                      {Retries: true, CountField: "RetryMax", Plus: 1, DelayField: "Backoff"},
		pathRetrier + ".Retrier":                  {Retries: true},
		pathFailsafe + "/retrypolicy.RetryPolicy": {Retries: true},
	}
	for _, p := range append(append([]string(nil), cenkaltiPaths...), cenkaltiV5) {
		m[p+".ConstantBackOff"] = RetryType{Retries: true, Delay: Invariant}
		m[p+".ExponentialBackOff"] = RetryType{Retries: true, Delay: Grows, JitterField: "RandomizationFactor", LiteralOnly: true}
	}
	return m
}

func delayFuncRows() map[string]Variation {
	m := map[string]Variation{}
	for _, p := range retryGoPaths {
		m[p+".FixedDelay"] = Invariant
		m[p+".BackOffDelay"] = Grows
		m[p+".RandomDelay"] = Randomised
		m[p+".FullJitterBackoffDelay"] = Randomised
		// CombineDelay(fs...) combines: read by the model.
	}
	// retryablehttp's Client.Backoff strategies.
	m[pathHTTP+".DefaultBackoff"] = Grows
	m[pathHTTP+".LinearJitterBackoff"] = Randomised
	m[pathHTTP+".RateLimitLinearJitterBackoff"] = Randomised
	return m
}

// CombineDelayKeys are the functions that combine delay strategies
// (retry-go CombineDelay): the combination varies as its most varying part.
func CombineDelayKeys() map[string]bool {
	m := map[string]bool{}
	for _, p := range retryGoPaths {
		m[p+".CombineDelay"] = true
	}
	return m
}

func stopRows() map[string]bool {
	m := map[string]bool{}
	for _, p := range append(append([]string(nil), cenkaltiPaths...), cenkaltiV5) {
		m[p+".Stop"] = true
	}
	return m
}

var localPackages = map[string]bool{
	"errors": true, "fmt": true, "context": true, "time": true, "strconv": true,
	"io": true, "bufio": true, "encoding/json": true, "encoding/xml": true, "net/url": true,
	// In-process work: memory, locks, text, logging.
	"sync": true, "sync/atomic": true, "strings": true, "bytes": true, "sort": true, "slices": true,
	"maps": true, "math": true, "unicode": true, "unicode/utf8": true, "log": true, "log/slog": true,
	// The local file system: a file held open by another process; the
	// kernel (mounts, devices, ioctls).
	"os": true, "io/fs": true, "path/filepath": true, "syscall": true,
	"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
	// The clients of local daemons (D-Bus, the Docker engine) are added
	// from LocalityTable.Daemons.
}

var localCalls = map[string]bool{
	"net.Listen":                       true,
	"net.ListenTCP":                    true,
	"net.ListenUDP":                    true,
	"net.ListenUnix":                   true,
	"net.ListenPacket":                 true,
	"(*net.ListenConfig).Listen":       true,
	"(*net.ListenConfig).ListenPacket": true,
}

func predicateRows() map[string]RetryPredicate {
	m := map[string]RetryPredicate{
		pathHTTP + ".Client.CheckRetry": {Lib: "retryablehttp's Client.CheckRetry", Arg: None},
		"(" + pathFailsafe + ".FailurePolicyBuilder[S, R any]).HandleIf": {Lib: "retrypolicy's HandleIf", Arg: 0,
			Recv: pathFailsafe + "/retrypolicy.Builder"},
	}
	for _, p := range retryGoPaths {
		m[p+".RetryIf"] = RetryPredicate{Lib: "retry.RetryIf", Arg: 0}
	}
	return m
}

var statusFields = map[string]bool{
	"net/http.Response.StatusCode":                                          true,
	"net/http/httptest.ResponseRecorder.Code":                               true,
	"google.golang.org/api/googleapi.Error.Code":                            true,
	"github.com/go-openapi/runtime.APIError.Code":                           true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Status.Code":                      true,
	"github.com/Azure/azure-sdk-for-go/sdk/azcore.ResponseError.StatusCode": true,
}

var permanentCodes = map[string]int{
	"InvalidArgument":    3,
	"NotFound":           5,
	"AlreadyExists":      6,
	"PermissionDenied":   7,
	"FailedPrecondition": 9,
	"OutOfRange":         11,
	"Unimplemented":      12,
	"Unauthenticated":    16,
}

func defaultRetry() RetryTable {
	return RetryTable{
		Sleeps:        maps.Clone(sleeps),
		Timers:        maps.Clone(timers),
		Random:        randomRows(),
		Delays:        delayRows(),
		Helpers:       helperRows(),
		Configs:       configRows(),
		ConfigTypes:   configTypeRows(),
		DelayFuncs:    delayFuncRows(),
		Stops:         stopRows(),
		Accept:        maps.Clone(accepts), // the same rows as the bound table's
		LocalPackages: retryLocalPackages(),
		LocalCalls:    maps.Clone(localCalls),
		Predicates:    predicateRows(),
		Serves: map[string]bool{
			"(*net/http.Server).ListenAndServe":      true,
			"(*net/http.Server).ListenAndServeTLS":   true,
			"(*net/http.Server).Serve":               true,
			"(*net/http.Server).ServeTLS":            true,
			"net/http.ListenAndServe":                true,
			"net/http.ListenAndServeTLS":             true,
			"net/http.Serve":                         true,
			"net/http.ServeTLS":                      true,
			"(*google.golang.org/grpc.Server).Serve": true,
		},
		CredentialRefresh: map[string]bool{
			"(golang.org/x/oauth2.TokenSource).Token":                         true,
			"(*golang.org/x/oauth2.Config).Exchange":                          true,
			"(*github.com/aws/aws-sdk-go-v2/aws.CredentialsCache).Invalidate": true,
			"(*github.com/aws/aws-sdk-go/aws/credentials.Credentials).Expire": true,
			"(*github.com/hashicorp/vault/api.TokenAuth).RenewSelf":           true,
			"(*github.com/hashicorp/vault/api.TokenAuth).RenewTokenAsSelf":    true,
		},
		StatusFields: maps.Clone(statusFields),
		StatusMethods: map[string]bool{
			"(*github.com/aws/smithy-go/transport/http.ResponseError).HTTPStatusCode":         true,
			"(*github.com/aws/aws-sdk-go-v2/aws/transport/http.ResponseError).HTTPStatusCode": true,
			"(github.com/aws/aws-sdk-go/aws/awserr.RequestFailure).StatusCode":                true,
			"(*github.com/go-resty/resty/v2.Response).StatusCode":                             true,
			"(*resty.dev/v3.Response).StatusCode":                                             true,
		},
		JitterHints:    slices.Clone(jitterHints),
		StatusPkg:      "net/http",
		CodeType:       pathGRPCCodes + ".Code",
		FromError:      map[string]bool{"google.golang.org/grpc/status.FromError": true},
		PermanentCodes: maps.Clone(permanentCodes),
		// Unavailable, ResourceExhausted, Aborted, DeadlineExceeded, Internal, Unknown.
		TransientCodes:    []int{14, 8, 10, 4, 13, 2},
		TransientStatuses: []int{503, 500, 502, 504, 429, 408},
		CodeNames: map[int]string{0: "OK", 1: "Canceled", 2: "Unknown", 3: "InvalidArgument", 4: "DeadlineExceeded",
			5: "NotFound", 6: "AlreadyExists", 7: "PermissionDenied", 8: "ResourceExhausted", 9: "FailedPrecondition",
			10: "Aborted", 11: "OutOfRange", 12: "Unimplemented", 13: "Internal", 14: "Unavailable", 15: "DataLoss",
			16: "Unauthenticated"},
		ContextErrs: map[string]bool{"context.Canceled": true, "context.DeadlineExceeded": true},
	}
}

// RetryPaths returns the import paths the retry rows mention, for fast
// paths.
func (t *Table) RetryPaths() []string {
	set := map[string]bool{}
	add := func(k string) {
		if p := PathOf(k); p != "" {
			set[p] = true
		}
	}
	for k := range t.Retry.Helpers {
		add(k)
	}
	for k := range t.Retry.Configs {
		add(k)
	}
	for k := range t.Retry.Sleeps {
		add(k)
	}
	for k := range t.Retry.Delays {
		add(k)
	}
	for k := range t.Retry.Predicates {
		add(k)
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	return out
}

// retryLocalPackages are the packages of RetryTable.LocalPackages: the
// rows above and the clients of local daemons.
func retryLocalPackages() map[string]bool {
	m := maps.Clone(localPackages)
	for p := range daemons() {
		m[p] = true
	}
	return m
}
