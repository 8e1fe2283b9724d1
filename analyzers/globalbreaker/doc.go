// Package globalbreaker defines an Analyzer that reports circuit breakers
// shared by several dependencies, breakers configured to trip on a single
// failure or to flood a recovering service, and breakers that can never
// trip.
//
// # Analyzer globalbreaker
//
// globalbreaker: report circuit breakers shared across dependencies, tripping on one failure, or unable to trip
//
// A circuit breaker protects one dependency: it counts that dependency's
// failures and, when they pile up, fails fast instead of waiting on it. One
// breaker shared by several dependencies means a failing search service
// opens the breaker for payments too. Known breakers come from one
// knowledge table: github.com/sony/gobreaker (v1 and /v2, CircuitBreaker and
// TwoStepCircuitBreaker), github.com/failsafe-go/failsafe-go/circuitbreaker
// (through failsafe.With(...).Get/Run), github.com/eapache/go-resiliency/breaker,
// github.com/afex/hystrix-go/hystrix (the command name is the breaker) and
// resilint's runtime package resil; teams add their own breaker types in
// configuration. globalbreaker reports
//
//   - one breaker (a package-level variable, a struct field, a local, a
//     hystrix command name, a registry name) whose guarded operations — the
//     functions passed to Execute/Run/Get/Do, or the calls between Allow and
//     its done callback — reach different dependencies: different hosts or
//     URL constants, URLs built on different base-URL fields, different
//     gRPC services (or a gRPC service and an HTTP request, to a constant
//     host or on a base-URL value), different client values, or methods of
//     different dependency types. Endpoints of one host or API are one
//     dependency.
//     Guarded operations are followed through helpers of the package and,
//     by facts, into other packages. Helpers that pass their function
//     argument to a guarded call, or call it in the guarded operation
//     (cb.Execute(func() (any, error) { return fn() })), count as guarded
//     calls, in their package and, by facts, in the packages that call them
//     (breakers.Call(w.cb, func() (T, error) { ... })): their breaker is
//     the one they are given (a parameter, a field of the receiver, a
//     breaker name), or their own (a package-level breaker, a constant
//     name). The finding is at
//     the guarded call that reaches another dependency than the first one,
//     and names both;
//   - settings that open the breaker on a single failure: a gobreaker
//     ReadyToTrip that returns true when one request in a thousand failed
//     (ConsecutiveFailures >= 1, TotalFailures > 0) or when the first
//     request after the counts are cleared failed (a failure ratio with no
//     minimum number of requests; a ReadyToTrip function of the package and
//     the package's helpers it calls, such as failureRatio(c), are followed a
//     few calls deep, and a helper's Requests == 0 guard against dividing by
//     zero is no minimum volume), failsafe-go's
//     WithFailureThreshold(1) and its defaults (NewWithDefaults, a builder
//     that sets no failure threshold), hystrix ErrorPercentThreshold or
//     RequestVolumeThreshold of 1, resil's MinimumThroughput(1) (or less,
//     which counts as 1) with BreakerFor or NewBreaker — a minimum volume
//     of one request makes the first failed request of a window a 100%
//     failure rate, whatever the ratio; a minimum of 2 or more, like
//     gobreaker's Requests >= 2, is not judged — and eapache
//     breaker.New(1, ...). gobreaker's own default (more than 5 consecutive
//     failures) is fine;
//   - settings that let a flood of probes through while the breaker is half
//     open: gobreaker MaxRequests, failsafe-go WithSuccessThreshold and
//     resil HalfOpenProbes above -max-half-open (default 10);
//   - a breaker that can never trip: constructed in a function and used for
//     a single guarded call of that invocation (or of that loop iteration),
//     then dropped.
//
// Not reported: one breaker per dependency (a map keyed by host, a registry
// such as resil.BreakerFor(name) with a name computed per dependency, a
// breaker in each client's struct), a shared breaker whose guarded calls all
// reach the same dependency, guarded calls whose dependency is unknown
// (unknown means silent), and a breaker constructed in a function that
// guards calls across a loop, is stored, returned or passed on (a
// failsafe-go executor built once, in a package-level variable or a struct
// field, with its breaker constructed in place, is that executor's breaker
// for the life of the process; exec.WithContext(ctx) is still exec).
//
// Suggested fix, for a shared breaker that is itself resil's registry
// breaker with default settings (every value it can hold is
// resil.BreakerFor("name") with no options): replace it at that call with
// the per-dependency breaker resil.BreakerFor("<dependency>"), named after
// the host, service or base-URL field; only where the module requires resil,
// and not where the replaced receiver is the last use of a local variable or
// an import. No fix otherwise (the message names resil.BreakerFor): a
// gobreaker or a breaker given options would lose its settings (ReadyToTrip,
// Timeout, OnStateChange) and its errors (callers' errors.Is(err,
// gobreaker.ErrOpenState)), which is more than the split.
//
// Example:
//
//	var cb = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "api"})
//
//	cb.Execute(func() (any, error) { return c.search(ctx, q) })
//	cb.Execute(func() (any, error) { return c.pay(ctx, p) }) // search and payments share a breaker
//
// Instead:
//
//	resil.BreakerFor("search").Execute(func() (any, error) { return c.search(ctx, q) })
//	resil.BreakerFor("payments").Execute(func() (any, error) { return c.pay(ctx, p) })
package globalbreaker
