// Package predicates has retry predicates handed to retry helpers that
// retry permanent failures, and predicates that do it right.
package predicates

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	retryv3 "github.com/avast/retry-go"
	retry "github.com/avast/retry-go/v4"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type roomsClient interface {
	Check(ctx context.Context, id string) (bool, error)
}

// A permanent gRPC code among the retried cases.
func grpcCases(ctx context.Context, rc roomsClient) error {
	return retry.Do(func() error {
		_, err := rc.Check(ctx, "r")
		return err
	}, retry.Attempts(3), retry.RetryIf(func(err error) bool {
		switch status.Code(err) {
		case codes.Unavailable, codes.Aborted, codes.FailedPrecondition: // want `this condition makes the retry predicate given to retry.RetryIf retry gRPC code FailedPrecondition: the code is permanent, the same call fails the same way on every attempt; return false for it and true only for transient codes`
			return true
		}
		return false
	}))
}

// Only transient codes: fine.
func grpcTransient(ctx context.Context, rc roomsClient) error {
	return retry.Do(func() error {
		_, err := rc.Check(ctx, "r")
		return err
	}, retry.RetryIf(func(err error) bool {
		switch status.Code(err) {
		case codes.Unavailable, codes.Aborted, codes.DeadlineExceeded, codes.ResourceExhausted:
			return true
		}
		return false
	}))
}

// A permanent code through FromError, in a function of the package given
// on the unversioned path.
func notFoundToo(err error) bool {
	st, ok := status.FromError(err)
	if ok && (st.Code() == codes.Unavailable || st.Code() == codes.NotFound) { // want `this condition makes the retry predicate given to retry.RetryIf retry gRPC code NotFound`
		return true
	}
	return false
}

func grpcNamed(ctx context.Context, rc roomsClient) error {
	return retryv3.Do(func() error {
		_, err := rc.Check(ctx, "r")
		return err
	}, retryv3.RetryIf(notFoundToo))
}

// A predicate given twice is reported once.
func grpcNamedAgain(ctx context.Context, rc roomsClient) error {
	return retryv3.Do(func() error {
		_, err := rc.Check(ctx, "r")
		return err
	}, retryv3.RetryIf(notFoundToo))
}

// Transient codes, and an error that is not a status error: fine.
func grpcOrOther(ctx context.Context, rc roomsClient) error {
	return retry.Do(func() error {
		_, err := rc.Check(ctx, "r")
		return err
	}, retry.RetryIf(func(err error) bool {
		st, ok := status.FromError(err)
		if !ok {
			return true
		}
		return st.Code() == codes.Unavailable
	}))
}

// HTTPError carries the status of a failed call.
type HTTPError struct{ StatusCode int }

func (e *HTTPError) Error() string { return fmt.Sprint("http ", e.StatusCode) }

// APIError carries the status in a field named Code.
type APIError struct{ Code int }

func (e *APIError) Error() string { return fmt.Sprint("api ", e.Code) }

// AppError carries an application code, not an HTTP status.
type AppError struct{ Code int }

func (e *AppError) Error() string { return fmt.Sprint("app ", e.Code) }

func fetch(ctx context.Context) error { return nil }

// An error carrying any status >= 400 is retried.
func carried4xx(ctx context.Context) error {
	return retry.Do(func() error { return fetch(ctx) }, retry.RetryIf(func(err error) bool {
		var he *HTTPError
		if errors.As(err, &he) && he.StatusCode >= 400 { // want `this condition makes the retry predicate given to retry.RetryIf retry permanent 4xx statuses \(400, 403, 404, 409, 410, 422, ...\): a 4xx other than 408, 425 and 429 is permanent`
			return true
		}
		return false
	}))
}

// An error's Code compared with an HTTP status constant.
func carriedCode(ctx context.Context) error {
	return retry.Do(func() error { return fetch(ctx) }, retry.RetryIf(func(err error) bool {
		var ae *APIError
		return errors.As(err, &ae) && ae.Code != http.StatusOK // want `this return makes the retry predicate given to retry.RetryIf retry permanent 4xx statuses`
	}))
}

// Only 5xx and 429 carried: fine.
func carried5xx(ctx context.Context) error {
	return retry.Do(func() error { return fetch(ctx) }, retry.RetryIf(func(err error) bool {
		var he *HTTPError
		if errors.As(err, &he) {
			return he.StatusCode >= 500 || he.StatusCode == http.StatusTooManyRequests
		}
		return true // a transport error
	}))
}

// An application code is not an HTTP status: fine.
func appCode(ctx context.Context) error {
	return retry.Do(func() error { return fetch(ctx) }, retry.RetryIf(func(err error) bool {
		var ae *AppError
		return errors.As(err, &ae) && ae.Code != 42
	}))
}

// Any error: out of scope.
func anyError(ctx context.Context) error {
	return retry.Do(func() error { return fetch(ctx) }, retry.RetryIf(func(err error) bool {
		return err != nil
	}))
}
