// Package param has retry loops whose bound is a parameter given a constant
// at the call site.
package param

import (
	"context"
	"net/http"
	"time"

	"nested/paramlib"
)

func fetchWithRetry(ctx context.Context, hc *http.Client, url string, attempts int) error {
	var err error
	for i := 0; i < attempts; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := hc.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
	}
	return err
}

// retries counts retries, not attempts: retries+1 attempts.
func withRetries(ctx context.Context, hc *http.Client, url string, retries int) error {
	var err error
	for i := 0; i <= retries; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := hc.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
	}
	return err
}

// With 1 the inner function makes one request: not nested.
func once(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = fetchWithRetry(ctx, hc, u, 1); err == nil {
			return nil
		}
	}
	return err
}

func three(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = fetchWithRetry(ctx, hc, u, 3); err == nil { // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls param.fetchWithRetry, which retries \(3 attempts\)`
			return nil
		}
	}
	return err
}

func zeroRetries(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = withRetries(ctx, hc, u, 0); err == nil {
			return nil
		}
	}
	return err
}

func twoRetries(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = withRetries(ctx, hc, u, 2); err == nil { // want `retry amplification 3×3 = 9: this loop \(3 attempts\) calls param.withRetries, which retries \(3 attempts\)`
			return nil
		}
	}
	return err
}

// A count the caller does not know stays n.
func unknown(ctx context.Context, hc *http.Client, u string, n int) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = fetchWithRetry(ctx, hc, u, n); err == nil { // want `retry amplification 3×n: this loop \(3 attempts\) calls param.fetchWithRetry`
			return nil
		}
	}
	return err
}

// Across packages, and through a function that passes its count on.
func crossOnce(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = paramlib.Forward(ctx, hc, u, 1); err == nil {
			return nil
		}
	}
	return err
}

func crossFour(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = paramlib.Fetch(ctx, hc, u, 4); err == nil { // want `retry amplification 3×4 = 12: this loop \(3 attempts\) calls paramlib.Fetch, which retries \(4 attempts\)`
			return nil
		}
	}
	return err
}

func crossForward(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = paramlib.Forward(ctx, hc, u, 2); err == nil { // want `retry amplification 3×2 = 6: this loop \(3 attempts\) calls paramlib.Forward, which retries \(2 attempts\) in paramlib.Fetch`
			return nil
		}
	}
	return err
}

// The parameter is changed before the loop: not followed.
func reassigned(ctx context.Context, hc *http.Client, url string, attempts int) error {
	attempts *= 2
	var err error
	for i := 0; i < attempts; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := hc.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
	}
	return err
}

func callReassigned(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = reassigned(ctx, hc, u, 1); err == nil { // want `retry amplification 3×attempts: this loop \(3 attempts\) calls param.reassigned, which retries \(attempts: attempts\)`
			return nil
		}
	}
	return err
}

// A flag selects the inner count through a local variable: with one of
// its values a single attempt, whether it retries depends on the run.
func lookup(ctx context.Context, hc *http.Client, u string, retry bool) error {
	attempts := 1
	if retry {
		attempts = 3
	}
	return fetchWithRetry(ctx, hc, u, attempts)
}

// Counts that all retry: the most of them.
func lookupMany(ctx context.Context, hc *http.Client, u string, hard bool) error {
	attempts := 2
	if hard {
		attempts = 4
	}
	return fetchWithRetry(ctx, hc, u, attempts)
}

func flagged(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lookup(ctx, hc, u, false); err == nil {
			return nil
		}
		if err = lookupMany(ctx, hc, u, false); err == nil { // want `retry amplification 3×4 = 12: this loop \(3 attempts\) calls param.lookupMany, which retries \(4 attempts\) in param.fetchWithRetry`
			return nil
		}
	}
	return err
}

// The attempts in a local variable that a boolean switch raises: called
// with the switch off, the function makes one attempt and is no layer.
func callSwitched(ctx context.Context, hc *http.Client, u string, withRetry bool) error {
	attempts := 1
	if withRetry {
		attempts = 5
	}
	var err error
	for i := 0; i < attempts; i++ {
		if err = fetchWithRetry(ctx, hc, u, 1); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return err
}

func acquireSwitched(ctx context.Context, hc *http.Client, u string) error {
	var err error
	for attempt := 0; attempt < 6; attempt++ {
		if err = callSwitched(ctx, hc, u, false); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err = callSwitched(ctx, hc, u, true); err == nil { // want `retry amplification 3×attempts: this loop \(3 attempts\) calls param.callSwitched`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
