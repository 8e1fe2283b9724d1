package predicates

import (
	"net/http"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

// A retry policy that handles every status >= 400 as a failure to retry.
func handleAll() retrypolicy.RetryPolicy[*http.Response] {
	return retrypolicy.NewBuilder[*http.Response]().
		HandleIf(func(resp *http.Response, err error) bool {
			return err != nil || resp.StatusCode >= 400 // want `this return makes the retry predicate given to retrypolicy's HandleIf retry permanent 4xx statuses`
		}).
		WithMaxRetries(3).
		Build()
}

// Only 5xx: fine.
func handle5xx() retrypolicy.RetryPolicy[*http.Response] {
	return retrypolicy.NewBuilder[*http.Response]().
		HandleIf(func(resp *http.Response, err error) bool {
			return err != nil || resp.StatusCode >= 500
		}).
		Build()
}

// A circuit breaker counts failures, it does not retry them: fine.
func breaker() circuitbreaker.CircuitBreaker[*http.Response] {
	return circuitbreaker.NewBuilder[*http.Response]().
		HandleIf(func(resp *http.Response, err error) bool {
			return err != nil || resp.StatusCode >= 400
		}).
		Build()
}
