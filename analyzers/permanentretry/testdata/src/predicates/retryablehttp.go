package predicates

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// Every status >= 400 retried, on a client's field.
func anyFailure() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, err
		}
		if resp.StatusCode >= 400 { // want `this condition makes the retry predicate given to retryablehttp's Client.CheckRetry retry permanent 4xx statuses \(400, 403, 404, 409, 410, 422, ...\): a 4xx other than 408, 425 and 429 is permanent, the same request fails the same way on every attempt; return false for it and true only for 5xx, 408, 425 and 429`
			return true, nil
		}
		return false, nil
	}
	return c
}

// Anything but 200, in a composite literal.
func notOK() *retryablehttp.Client {
	return &retryablehttp.Client{
		RetryMax: 3,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			if err != nil {
				return true, nil
			}
			return resp.StatusCode != http.StatusOK, nil // want `this return makes the retry predicate given to retryablehttp's Client.CheckRetry retry permanent 4xx statuses`
		},
	}
}

// A named function of the package, and 404 listed with the transient
// statuses.
func retryNotFound(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusNotFound, http.StatusServiceUnavailable: // want `retry HTTP status 404 Not Found: a 4xx`
		return true, nil
	}
	return false, nil
}

func named() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = retryNotFound
	return c
}

// Only transport errors, 429 and 5xx: fine.
func transientOnly() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			return true, nil
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return true, nil
		}
		return false, nil
	}
	return c
}

// 4xx returns false first: fine.
func fourFirst() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests &&
			resp.StatusCode != http.StatusRequestTimeout {
			return false, nil
		}
		return resp.StatusCode != http.StatusOK, nil
	}
	return c
}

// The library's policy decides the rest: fine.
func delegates() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return false, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	return c
}

func delegatesPropagated() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		ok, perr := retryablehttp.ErrorPropagatedRetryPolicy(ctx, resp, err)
		if !ok && resp != nil && resp.StatusCode == http.StatusConflict {
			return true, nil
		}
		return ok, perr
	}
	return c
}

type session struct{ token string }

func (s *session) refreshToken(ctx context.Context) error { return nil }

// 401 refreshes credentials before it retries: fine.
func refreshes(s *session) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		if resp.StatusCode == http.StatusUnauthorized {
			if err := s.refreshToken(ctx); err != nil {
				return false, err
			}
			return true, nil
		}
		return resp.StatusCode >= 500, nil
	}
	return c
}

// A field of the same name on a type of the package is no retry helper's:
// not reported.
type policy struct {
	CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)
}

func ownPolicy() *policy {
	return &policy{CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		return err != nil || resp.StatusCode >= 400, nil
	}}
}

// 401 retried without a refresh.
func noRefresh() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode >= 500 { // want `retry HTTP status 401 Unauthorized`
			return true, nil
		}
		return false, nil
	}
	return c
}

func transient(code int) bool { return code == http.StatusTooManyRequests || code >= 500 }

func failed(code int) bool { return code >= 400 }

// Predicates of the package's own decide, in a method value and in a
// local variable.
func (s *session) check(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, nil
	}
	return failed(resp.StatusCode), nil // want `this return makes the retry predicate given to retryablehttp's Client.CheckRetry retry permanent 4xx statuses`
}

func method(s *session) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = s.check
	return c
}

func local() *retryablehttp.Client {
	check := func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		return transient(resp.StatusCode), nil
	}
	c := retryablehttp.NewClient()
	c.CheckRetry = check
	return c
}

// A conversion to the field's type is looked through.
func converted() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.CheckRetry = retryablehttp.CheckRetry(func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		return err != nil || resp.StatusCode > 299, nil // want `this return makes the retry predicate`
	})
	return c
}
