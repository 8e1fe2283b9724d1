// Package permanentretry defines an Analyzer that reports retry loops that
// retry permanent failures.
//
// # Analyzer permanentretry
//
// permanentretry: report retry loops and retry predicates that send permanent failures (HTTP 4xx, permanent gRPC codes) round again
//
// A request that failed with 404 Not Found, 400 Bad Request or 422
// Unprocessable Entity fails the same way on every attempt: retrying it
// wastes the retry budget, adds load to the dependency, delays the error the
// caller needs, and with a sleep between attempts holds the caller for
// nothing. The same goes for the gRPC codes InvalidArgument, NotFound,
// AlreadyExists, PermissionDenied, Unauthenticated, FailedPrecondition,
// OutOfRange and Unimplemented. permanentretry reports, in a retry loop, the
// condition (an if, a case clause, a switch) that sends such a failure back
// into the loop: retrying on resp.StatusCode != 200, on >= 400, on
// != http.StatusOK, a switch whose retried cases list a permanent code, a
// default branch that retries whatever is left. A loop whose success is
// another 2xx it compares the status with (status == http.StatusAccepted,
// while a 200 goes round) is read the same way.
//
// A status check done in a function of the package the loop hands the
// response (or its status) to is read through: its body is walked with the
// status assumed, and what it returns decides the loop's condition. A
// helper that returns an error, or true, for 4xx that the loop then
// returns on (if err := checkResponse(resp); err != nil { return err })
// keeps permanent failures out of the loop; one whose result does not
// separate them (an error for every status but 2xx that the loop retries,
// ok(resp) true for 200 only) sends them round and is reported. A helper
// that reads a response of its own is not read through. A status class
// computed once (class := resp.StatusCode / 100; class == 4) and a set of
// retryable statuses or codes held in a map literal the package never
// changes (!retryable[status.Code(err)]) are read as what they compute.
//
// Retryable: 5xx, 408 Request Timeout, 425 Too Early, 429 Too Many
// Requests; gRPC Unavailable, DeadlineExceeded, ResourceExhausted, Aborted
// and the like.
//
// Retry predicates handed to a retry helper are read the same way, as a
// function whose true result goes round: retry-go's RetryIf,
// retryablehttp's Client.CheckRetry (assigned to the field or given in a
// composite literal) and failsafe's HandleIf on a retry policy builder,
// given as a function literal or a function of the package. permanentretry
// reports, in the predicate, the condition or the return on whose path it
// returns true for a permanent status or code: if resp.StatusCode >= 400
// { return true, nil }, return resp.StatusCode != 200, nil, case
// codes.Unavailable, codes.FailedPrecondition: return true. A status an
// error carries (errors.As(err, &apiErr) && apiErr.Code >= 400) counts
// when it is compared with an HTTP status constant.
//
// An operation handed to a retry helper that retries every error but one
// marked with its stop function (cenkalti/backoff's Retry, which stops on
// backoff.Permanent(err)) is read the same way, as a function whose
// non-nil error goes round: the condition on whose path it returns an
// unmarked error for a permanent status or code is reported (if
// resp.StatusCode >= 400 { return &StatusError{...} }).
//
// A gRPC connection whose default service config (a constant JSON given
// to grpc.WithDefaultServiceConfig where the connection is dialled) has a
// retry policy listing a permanent code in retryableStatusCodes is
// reported at the dial: gRPC itself re-sends every call of the
// connection that fails with it.
//
// Not reported: loops that return or break on 4xx before they retry, and
// predicates that return false for it first; conditions that retry only
// >= 500 (and 429), transient codes or transport errors (err != nil);
// allowlists of retryable statuses; predicates that leave the rest to the
// library's policy (retryablehttp.DefaultRetryPolicy); a 401 or
// Unauthenticated path that refreshes credentials before it retries (in
// the branch, or through a flag a refresh-named call of the loop reads); a
// 409 Conflict in a read-modify-write loop, whose write is given what a
// call to the dependency read in the same iteration (optimistic
// concurrency: the conflict is resolved by reading again); a single
// request with no loop; a loop whose every retried call stays on this
// machine (a loopback address such as 127.0.0.1 or localhost, a unix
// socket, a subprocess: issue 13, rule 1), such as a readiness poll of a
// local sidecar. Out of scope for now: a 4xx hidden inside
// an error's text, and loops or predicates that retry any err != nil.
//
// Example:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		resp, err := c.hc.Do(req)
//		if err == nil && resp.StatusCode == http.StatusOK {
//			return nil
//		} // 404 goes round again
//		...
//	}
//
// Instead:
//
//	if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != 408 && resp.StatusCode != 425 && resp.StatusCode != 429 {
//		return fmt.Errorf("status %d", resp.StatusCode) // permanent: do not retry
//	}
package permanentretry
