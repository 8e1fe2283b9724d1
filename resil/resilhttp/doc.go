// Package resilhttp makes an HTTP client hygienic in one line:
//
//	client := resilhttp.NewClient()
//
// Its [Transport] gives every request a deadline if it has none, runs each
// request through a per-host circuit breaker and bulkhead, and retries
// idempotent requests through resil.Retry — with the deadline as the budget,
// a per-host retry budget, Retry-After honoured, and 4xx never retried.
//
// Retries happen at one layer only, across processes too: a request sent
// while an outer layer owns retries carries the [HeaderRetryOwned] header,
// and [Middleware] on the receiving server marks the request's context, so
// that server's own outbound calls make a single attempt each.
package resilhttp
