// Package resil is the small runtime that resilint's suggested fixes target:
// budget-aware retries, per-dependency circuit breakers, bulkheads and
// bounded fan-out, using only the standard library.
//
// The pieces, one concern per file:
//
//   - [Retry] and [RetryValue] (retry.go, options.go): capped exponential
//     backoff with full jitter ([Backoff]), planned against the caller's
//     deadline. The deadline is the budget: each attempt gets
//     min(time left − reserve, [AttemptTimeout]), and no attempt or sleep is
//     started that cannot finish before the deadline. When Retry gives up it
//     returns a [*RetryError] that wraps the last real error.
//   - Classification (errors.go, http.go, grpc.go): [Permanent] errors,
//     caller cancellation, HTTP 4xx other than 408/425/429 and most gRPC codes
//     are never retried. [CheckResponse] turns an *http.Response into nil or a
//     classified error that carries Retry-After.
//   - Retry at one layer only (layer.go): Retry marks the context it hands
//     to the operation; a nested Retry that sees the mark makes exactly one
//     attempt, so retries do not multiply across layers.
//   - Retry budgets (budget.go): a token bucket per dependency (about 10 % of
//     requests plus a small floor) that fails fast when retries would add
//     more load than that.
//   - [Breaker] (breaker.go, breaker_window.go, breaker_options.go,
//     registry.go): trips on the failure rate over a rolling window with a
//     minimum volume; caller cancellation is neutral; the closed path takes
//     no lock, reads no clock and allocates nothing.
//   - [Bulkhead] (bulkhead.go): bounded concurrency plus a bounded queue.
//   - [Group] and [ForEach] (group.go): bounded, context-aware fan-out.
//
// The subpackage resilhttp applies all of this to an http.RoundTripper.
package resil
