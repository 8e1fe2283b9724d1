// Package permanent has retry loops that retry permanent failures, and
// loops that do it right.
package permanent

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type client struct {
	hc    *http.Client
	base  string
	token string
}

func (c *client) newRequest(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, c.base, nil)
}

func sleep(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(rand.Int63n(int64(100*time.Millisecond) << attempt))):
		return nil
	}
}

// Retries on != http.StatusOK.
func (c *client) notOK(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := c.newRequest(ctx)
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK { // want `this condition sends permanent 4xx statuses \(400, 403, 404, 409, 410, 422, ...\) back into the retry loop: a 4xx other than 408, 425 and 429 is permanent`
				err = fmt.Errorf("status %d", resp.StatusCode)
			} else {
				return nil
			}
		}
		lastErr = err
		if err := sleep(ctx, attempt); err != nil {
			return err
		}
	}
	return lastErr
}

// Retries on >= 400.
func (c *client) atLeast400(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// Success is 200 only: everything else goes round.
func (c *client) onlyOK(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode == 200 { // want `permanent 4xx statuses`
			return nil
		}
	}
	return errors.New("gave up")
}

// 4xx returns first: fine.
func (c *client) fourFirst(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		if resp.StatusCode != http.StatusOK {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// Only 5xx: fine.
func (c *client) fiveOnly(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

var retryable = map[int]bool{502: true, 503: true, 504: true}

// An allowlist: fine.
func (c *client) allowlist(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if retryable[resp.StatusCode] {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// An allowlist switch: fine; a switch that lists 404: reported on its case.
func (c *client) switches(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			continue
		case http.StatusNotFound, http.StatusTooManyRequests: // want `HTTP status 404 Not Found back into the retry loop`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// Status arithmetic: anything but 2xx goes round.
func (c *client) arithmetic(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// A status held in a variable.
func (c *client) variable(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		code := resp.StatusCode
		resp.Body.Close()
		if code < 300 {
			return nil
		}
		if code >= 400 { // want `permanent 4xx statuses`
			if err := sleep(ctx, attempt); err != nil {
				return err
			}
		}
	}
	return errors.New("gave up")
}

func (c *client) refreshToken(ctx context.Context) string { return "" }

// 401 refreshes credentials before it retries: fine.
func (c *client) refresh(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			c.token = c.refreshToken(ctx)
			continue
		}
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// 401 retried without a refresh.
func (c *client) noRefresh(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode >= 500 { // want `HTTP status 401 Unauthorized back into the retry loop`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// Any error retried: out of scope.
func (c *client) anyError(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (c *client) call(ctx context.Context) error { return nil }

// A single request, no loop: nothing is retried.
func (c *client) once(ctx context.Context) bool {
	req, _ := c.newRequest(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// A loop over URLs: moves on after a failure.
func (c *client) each(ctx context.Context, urls []string) []string {
	var down []string
	for _, u := range urls {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		resp, err := c.hc.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			down = append(down, u)
			continue
		}
		resp.Body.Close()
	}
	return down
}

type roomsClient interface {
	Check(ctx context.Context, id string) (bool, error)
	Refresh(ctx context.Context) error
}

// gRPC: a permanent code among the retried cases.
func grpcCases(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.NotFound: // want `gRPC code NotFound back into the retry loop: the code is permanent`
			if err := sleep(ctx, attempt); err != nil {
				return false, err
			}
		default:
			return false, err
		}
	}
	return false, err
}

// gRPC: only transient codes stay: fine.
func grpcTransient(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		if c := status.Code(err); c != codes.Unavailable && c != codes.DeadlineExceeded {
			return false, err
		}
	}
	return false, err
}

// gRPC: a default that retries whatever is left.
func grpcDefault(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		switch status.Code(err) {
		case codes.PermissionDenied:
			return false, err
		default: // want `gRPC codes InvalidArgument, NotFound, AlreadyExists, FailedPrecondition, OutOfRange, Unimplemented, Unauthenticated back into the retry loop`
		}
	}
	return false, err
}

// gRPC: Unauthenticated refreshes credentials first: fine.
func grpcRefresh(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		switch status.Code(err) {
		case codes.Unauthenticated:
			if err := rc.Refresh(ctx); err != nil {
				return false, err
			}
		case codes.Unavailable:
		default:
			return false, err
		}
	}
	return false, err
}

// gRPC through FromError.
func grpcFromError(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		st, _ := status.FromError(err)
		if st.Code() == codes.InvalidArgument || st.Code() == codes.Unavailable { // want `gRPC code InvalidArgument back into the retry loop`
			continue
		}
		return false, err
	}
	return false, err
}

// Informational responses are read again; a status in a boolean.
func (c *client) readResponse(ctx context.Context) (*http.Response, error) {
	for {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		code := resp.StatusCode
		is1xx := 100 <= code && code <= 199
		if is1xx && code != http.StatusSwitchingProtocols {
			continue
		}
		return resp, nil
	}
}

// Redirects: each request is built from the previous response.
func (c *client) follow(ctx context.Context, url string) (*http.Response, error) {
	var resp *http.Response
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for hops := 0; hops < 10; hops++ {
		resp, err = c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 300 || resp.StatusCode >= 400 {
			return resp, nil
		}
		loc := resp.Header.Get("Location")
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
		if err != nil {
			return nil, err
		}
	}
	return resp, errors.New("too many redirects")
}

func transient(code int) bool { return code == http.StatusTooManyRequests || code >= 500 }

func failed(status int) bool { return status >= 400 }

// A predicate of the package's own: an allowlist.
func (c *client) predicateAllow(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if transient(resp.StatusCode) {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// A predicate of the package's own that retries every 4xx.
func (c *client) predicateAll(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if failed(resp.StatusCode) { // want `permanent 4xx statuses`
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// gRPC: ok from FromError, and a permanent code retried.
func grpcOK(ctx context.Context, rc roomsClient) (bool, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ok bool
		ok, err = rc.Check(ctx, "r")
		if err == nil {
			return ok, nil
		}
		if st, isStatus := status.FromError(err); isStatus && (st.Code() == codes.Aborted || st.Code() == codes.AlreadyExists) { // want `gRPC code AlreadyExists back into the retry loop`
			continue
		}
		return false, err
	}
	return false, err
}

// ProviderError carries the status of a failed call.
type ProviderError struct{ Code int }

func (e *ProviderError) Error() string { return fmt.Sprint("provider: ", e.Code) }

// AppError carries an application code, not an HTTP status.
type AppError struct{ Code int }

func (e *AppError) Error() string { return fmt.Sprint("app: ", e.Code) }

func postRefund(ctx context.Context, c *http.Client) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://pay/refunds", nil)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &ProviderError{Code: resp.StatusCode}
	}
	return nil
}

func refundAny4xx(ctx context.Context, c *http.Client) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = postRefund(ctx, c); err == nil {
			return nil
		}
		var pe *ProviderError
		if errors.As(err, &pe) && pe.Code >= 400 { // want `this condition sends permanent 4xx statuses`
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
			continue
		}
		return err
	}
	return err
}

func refund5xx(ctx context.Context, c *http.Client) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = postRefund(ctx, c); err == nil {
			return nil
		}
		var pe *ProviderError
		if errors.As(err, &pe) && (pe.Code >= 500 || pe.Code == http.StatusTooManyRequests) {
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
			continue
		}
		return err
	}
	return err
}

// An application code is not an HTTP status.
func appCode(ctx context.Context, c *http.Client) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = postRefund(ctx, c); err == nil {
			return nil
		}
		var ae *AppError
		if errors.As(err, &ae) && ae.Code != 42 {
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
			continue
		}
		return err
	}
	return err
}

func (c *client) token2(ctx context.Context, force bool) (string, error) { return "", nil }

// 401 sets a flag that the token call at the top of the loop reads: the
// next attempt gets fresh credentials.
func (c *client) refreshByFlag(ctx context.Context) error {
	force := false
	for attempt := 0; attempt < 3; attempt++ {
		tok, err := c.token2(ctx, force)
		if err != nil {
			return err
		}
		req, _ := c.newRequest(ctx)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			force = true
			continue
		}
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// A flag nothing reads for a refresh is no refresh.
func (c *client) flagUnread(ctx context.Context) error {
	seen := false
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized { // want `HTTP status 401 Unauthorized back into the retry loop`
			seen = true
			continue
		}
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
	_ = seen
	return errors.New("gave up")
}

type object struct {
	Name     string
	Replicas int
}

type statusErr struct{ Code int }

func (e *statusErr) Error() string { return "status" }

func (c *client) getObject(ctx context.Context, name string) (*object, error) {
	req, _ := c.newRequest(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &object{Name: name}, nil
}

func (c *client) update(ctx context.Context, o *object) error {
	req, _ := c.newRequest(ctx)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &statusErr{Code: resp.StatusCode}
	}
	return nil
}

// Read-modify-write: a 409 Conflict means the object changed; the loop
// reads it again before the next write.
func (c *client) scale(ctx context.Context, name string, n int) error {
	for attempt := 0; attempt < 5; attempt++ {
		cur, err := c.getObject(ctx, name)
		if err != nil {
			return err
		}
		cur.Replicas = n
		err = c.update(ctx, cur)
		if err == nil {
			return nil
		}
		var se *statusErr
		if !errors.As(err, &se) || se.Code != http.StatusConflict {
			return err
		}
	}
	return errors.New("conflict")
}

// The same write sent again without a fresh read: 409 is permanent.
func (c *client) scaleBlind(ctx context.Context, cur *object) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.update(ctx, cur)
		if err == nil {
			return nil
		}
		var se *statusErr
		if !errors.As(err, &se) || se.Code != http.StatusConflict { // want `HTTP status 409 Conflict back into the retry loop`
			return err
		}
	}
	return errors.New("conflict")
}

// Only 202 leaves: every other status falls through, past a 401 branch
// that refreshes credentials (exempt), into the next attempt. The finding
// is on the success check the permanent statuses fall through, not on the
// refresh branch.
func (c *client) accepted(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ {
		req, _ := c.newRequest(ctx)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted { // want `permanent 4xx statuses`
			return nil
		}
		if resp.StatusCode == http.StatusUnauthorized {
			c.token = c.refreshToken(ctx)
			continue
		}
		if err := sleep(ctx, attempt); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

func countTokenFailure() {}

// A call named like a refresh that changes nothing the next attempt sends:
// 401 is still sent again (no decision by a name).
func (c *client) namedLikeRefresh(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := c.newRequest(ctx)
		resp, err := c.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized { // want `HTTP status 401 Unauthorized back into the retry loop`
			countTokenFailure()
			continue
		}
		if resp.StatusCode >= 500 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

func (c *client) queueDepth(ctx context.Context) (int, error) { return 0, nil }

// A variable named like a status that holds no HTTP status (a queue's
// depth): nothing proves a 4xx, nothing is reported (no decision by a
// name).
func (c *client) depthNamedCode(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		code, err := c.queueDepth(ctx)
		if err != nil {
			continue
		}
		if code >= 400 && code < 500 {
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

// backendErr carries a backend's own numeric code in a field named
// StatusCode; nothing in the package gives it an HTTP status or compares
// it with one.
type backendErr struct{ StatusCode int }

func (e *backendErr) Error() string { return fmt.Sprint("backend ", e.StatusCode) }

func (c *client) lookup(ctx context.Context) error { return &backendErr{StatusCode: 7} }

// A field named like a status is no status (no decision by a name).
func (c *client) backendCode(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.lookup(ctx); err == nil {
			return nil
		}
		var be *backendErr
		if errors.As(err, &be) && be.StatusCode != 0 {
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
			continue
		}
		return err
	}
	return err
}
