// Package cases has nested retry layers inside one package, with helpers,
// and the shapes that are not nested.
package cases

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/redis/go-redis/v9"
	"github.com/resilint/resilint/resil"
)

type api struct {
	hc   *http.Client
	rc   *retryablehttp.Client
	base string
	cb   circuitbreaker.CircuitBreaker[any]
}

func wait(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(rand.Int63n(int64(50*time.Millisecond) << attempt))):
		return nil
	}
}

func (a *api) once(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base, nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// fetch retries 4 times in a loop.
func (a *api) fetch(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = a.once(ctx); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// get forwards to fetch.
func (a *api) get(ctx context.Context) error { return a.fetch(ctx) }

// A loop calling a function that forwards to a retrying one.
func (a *api) loopOverGet(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.get(ctx); err == nil { // want `retry amplification 2×4 = 8: this loop \(2 attempts\) calls \(\*cases.api\).get, which retries \(4 attempts\) in \(\*cases.api\).fetch`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// capture retries with cenkalti/backoff: WithMaxRetries(b, 2) is 3 attempts.
func (a *api) capture(ctx context.Context) error {
	return backoff.Retry(func() error { return a.once(ctx) }, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2), ctx))
}

// retry.Do around a function that retries with backoff.Retry.
func (a *api) book(ctx context.Context) error {
	return retry.Do(func() error {
		return a.capture(ctx) // want `retry amplification 3×3 = 9: this retry.Do \(3 attempts\) calls \(\*cases.api\).capture, which retries \(3 attempts\) with backoff.Retry`
	}, retry.Attempts(3), retry.Context(ctx))
}

func (a *api) sync() error {
	return backoff.Retry(func() error { return a.once(context.TODO()) }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
}

// The operation given as a method value.
func (a *api) methodValue() error {
	return backoff.Retry(a.sync, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 1)) // want `retry amplification 2×3 = 6: this backoff.Retry \(2 attempts\) calls \(\*cases.api\).sync`
}

// The operation in a variable.
func (a *api) opVariable(ctx context.Context) error {
	op := func() error {
		return a.fetch(ctx) // want `retry amplification 3×4 = 12`
	}
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2), ctx))
}

// failsafe with a retry policy: WithMaxRetries(2) is 3 attempts.
func (a *api) failsafeRetry(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(2).Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error {
		return a.fetch(ctx) // want `retry amplification 3×4 = 12: this failsafe Executor.Run \(3 attempts\)`
	})
}

// failsafe with only a circuit breaker: one attempt.
func (a *api) failsafeBreaker(ctx context.Context) error {
	return failsafe.With[any](a.cb).WithContext(ctx).Run(func() error {
		return a.fetch(ctx)
	})
}

// retryablehttp: RetryMax 2 is 3 attempts.
func (a *api) award(ctx context.Context) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, a.base, nil)
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// retryablehttp in a struct field: unknown attempts.
func (a *api) awardField(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, a.base, nil)
	if err != nil {
		return err
	}
	resp, err := a.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (a *api) awards(ctx context.Context) error {
	var err error
	for attempt := range 2 {
		if err = a.award(ctx); err == nil { // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls \(\*cases.api\).award, which retries \(3 attempts\) with retryablehttp`
			return nil
		}
		if err = a.awardField(ctx); err == nil { // want `retry amplification 2×n: this loop \(2 attempts\) calls \(\*cases.api\).awardField, which retries \(n attempts\)`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// The package-level retryablehttp.Get retries 5 times.
func ping(url string) error {
	resp, err := retryablehttp.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func pings(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = ping(url); err == nil { // want `retry amplification 3×5 = 15`
			return nil
		}
	}
	return err
}

// A loop over a collection: not a retry loop.
func (a *api) each(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := a.fetchID(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (a *api) fetchID(ctx context.Context, id string) error { return a.fetch(ctx) }

type fetcher interface{ Fetch(ctx context.Context) error }

// Calls through an interface or a function value: silent.
func (a *api) dynamic(ctx context.Context, f fetcher, fn func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = f.Fetch(ctx); err == nil {
			return nil
		}
		if err = fn(ctx); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// Different dependencies side by side, one after the other: silent.
func (a *api) sideBySide(ctx context.Context) error {
	if err := a.fetch(ctx); err != nil {
		return err
	}
	return a.capture(ctx)
}

// resil at both layers with the operation's context passed down: the inner
// layer attempts once.
func (a *api) resilInner(ctx context.Context) error {
	return resil.Retry(ctx, func(ctx context.Context) error { return a.once(ctx) })
}

func (a *api) resilOuter(ctx context.Context) error {
	return resil.Retry(ctx, func(ctx context.Context) error {
		return a.resilInner(ctx)
	})
}

// resil outside, but the outer context instead of the operation's: the
// inner layer does not see the mark.
func (a *api) resilOuterDetached(ctx context.Context) error {
	outer := ctx
	return resil.Retry(ctx, func(context.Context) error {
		return a.resilInner(outer) // want `retry amplification 3×3 = 9: this resil.Retry \(3 attempts\) calls \(\*cases.api\).resilInner, which retries \(3 attempts\) with resil.Retry`
	})
}

// A bound that is not a constant is named by its expression (issue 13,
// rule 4).
func (a *api) variableBound(ctx context.Context, maxAttempts int) error {
	var err error
	for i := 0; i < maxAttempts; i++ {
		if err = a.fetch(ctx); err == nil { // want `retry amplification maxAttempts×4: this loop \(attempts: maxAttempts\) calls \(\*cases.api\).fetch, which retries \(4 attempts\), so a failing dependency gets maxAttempts×4 requests`
			return nil
		}
	}
	return err
}

// A labelled loop, a closure, an immediate retry.
func (a *api) labelled(ctx context.Context) {
	go func() {
	outer:
		for attempt := 0; attempt < 3; attempt++ {
			switch err := a.fetch(ctx); { // want `retry amplification 3×4 = 12`
			case err == nil:
				break outer
			case errors.Is(err, context.Canceled):
				return
			}
		}
	}()
}

// A generic retry helper of the project's own is a retrying function.
func do[T any](ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	var v T
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if v, err = op(ctx); err == nil {
			return v, nil
		}
		if err := wait(ctx, attempt); err != nil {
			return v, err
		}
	}
	return v, err
}

func (a *api) generic(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if _, err = do(ctx, func(ctx context.Context) (int, error) { return 1, a.once(ctx) }); err == nil { // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls cases.do, which retries \(3 attempts\)`
			return nil
		}
	}
	return err
}

// A retryablehttp client with RetryMax 0 makes one attempt, whatever the
// library's own code looks like.
func (a *api) noRetries(ctx context.Context) error {
	rc := &retryablehttp.Client{RetryMax: 0}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, a.base, nil)
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (a *api) loopNoRetries(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = a.noRetries(ctx); err == nil {
			return nil
		}
	}
	return err
}

// retry.Do with Attempts(2): the helper's options, not the library's code.
func (a *api) twice(ctx context.Context) error {
	return retry.Do(func() error { return a.once(ctx) }, retry.Attempts(2))
}

func (a *api) loopTwice(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = a.twice(ctx); err == nil { // want `retry amplification 3×2 = 6`
			return nil
		}
	}
	return err
}

// A retryablehttp client a constructor stores in a field: the field's one
// value, RetryMax 3, is 4 attempts.
type store struct {
	rc  *retryablehttp.Client
	url string
}

func newStore(url string) *store {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 3
	return &store{rc: rc, url: url}
}

func (s *store) get(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return err
	}
	resp, err := s.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (s *store) sync(ctx context.Context) error {
	var err error
	for attempt := range 2 {
		if err = s.get(ctx); err == nil { // want `retry amplification 2×4 = 8: this loop \(2 attempts\) calls \(\*cases.store\).get, which retries \(4 attempts\)`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// The count changed through the field elsewhere: unknown.
type tuned struct{ rc *retryablehttp.Client }

func newTuned() *tuned { return &tuned{rc: retryablehttp.NewClient()} }

func (t *tuned) setRetries(n int) { t.rc.RetryMax = n }

func (t *tuned) get(ctx context.Context, url string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := t.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (t *tuned) sync(ctx context.Context, url string) error {
	var err error
	for attempt := range 2 {
		if err = t.get(ctx, url); err == nil { // want `retry amplification 2×n: this loop \(2 attempts\) calls \(\*cases.tuned\).get, which retries \(n attempts\)`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// A cache client whose commands return a result read by a method of its
// own: rdb.Get(ctx, k).Bytes().
type verdicts struct{ kv *redis.Client }

func (v *verdicts) get(ctx context.Context, id string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		raw, err := v.kv.Get(ctx, "v:"+id).Bytes()
		if err == nil {
			return raw, nil
		}
		lastErr = err
		if err := wait(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

func cachedVerdict(ctx context.Context, v *verdicts) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		raw, err := v.get(ctx, "a") // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls \(\*cases.verdicts\).get`
		if err == nil {
			return raw, nil
		}
		lastErr = err
		if err := wait(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, lastErr
}

func decodeBody[T any](resp *http.Response) (T, error) {
	var v T
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return v, errors.New(resp.Status)
	}
	return v, nil
}

// reserve's attempt succeeds when the call and the decoding of its response
// both do: a retry layer of 3 attempts.
func (a *api) reserve(ctx context.Context, id string) (string, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/book/"+id, nil)
		if err != nil {
			return "", err
		}
		resp, err := a.hc.Do(req)
		if err == nil {
			b, derr := decodeBody[string](resp)
			if derr == nil {
				return b, nil
			}
			lastErr = derr
		} else {
			lastErr = err
		}
		if werr := wait(ctx, attempt); werr != nil {
			return "", werr
		}
	}
	return "", lastErr
}

func bookTwice(ctx context.Context, a *api) (string, error) {
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		b, err := a.reserve(ctx, "x") // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls \(\*cases.api\).reserve`
		if err == nil {
			return b, nil
		}
		lastErr = err
		if err := wait(ctx, attempt); err != nil {
			return "", err
		}
	}
	return "", lastErr
}

// withRetry hands its operation to retry-go: a retry layer of 3 attempts.
func withRetry[T any](ctx context.Context, op func() (T, error)) (T, error) {
	return retry.DoWithData(op, retry.Attempts(3), retry.Context(ctx))
}

// withRetryErr does so through a literal that only calls it.
func withRetryErr(ctx context.Context, op func(context.Context) error) error {
	return retry.Do(func() error { return op(ctx) }, retry.Attempts(2), retry.Context(ctx))
}

func wrapped(ctx context.Context, a *api) error {
	if _, err := withRetry(ctx, func() (string, error) {
		return a.reserve(ctx, "y") // want `retry amplification 3×3 = 9: this cases.withRetry \(3 attempts\) calls \(\*cases.api\).reserve`
	}); err != nil {
		return err
	}
	return withRetryErr(ctx, func(ctx context.Context) error {
		_, err := a.reserve(ctx, "z") // want `retry amplification 2×3 = 6`
		return err
	})
}

// write's loop reaches the store through a small helper of the package
// (t.send sets a header and sends): a retry layer.
type tsdb struct {
	hc   *http.Client
	base string
}

func (t *tsdb) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Content-Type", "application/json")
	return t.hc.Do(req)
}

func (t *tsdb) write(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.base, nil)
		if err != nil {
			return err
		}
		resp, err := t.send(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		lastErr = err
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return lastErr
}

func ingest(t *tsdb) error {
	return backoff.Retry(func() error {
		return t.write(context.Background()) // want `retry amplification 5×3 = 15: this backoff.Retry \(5 attempts\) calls \(\*cases.tsdb\).write`
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4))
}

// A consumer loop that calls again after every success and waits after a
// failure is no retry layer: reserve's own retries are the only layer.
func consume(ctx context.Context, a *api) {
	for {
		id, err := a.reserve(ctx, "next")
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			time.Sleep(time.Second)
			continue
		}
		_ = id
	}
}

// A call through an interface, or of a function value, may reach anything:
// a loop retrying one is no proven retry layer (issue 13, rule 4: the
// factor multiplies only proven layers).
type keyStore interface {
	Put(ctx context.Context, key string) error
}

func putRetry(ctx context.Context, s keyStore) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.Put(ctx, "k"); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func putTwice(ctx context.Context, s keyStore) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = putRetry(ctx, s); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

type retryCfg struct{ MaxRetries int }

// fetchCfg retries up to cfg.MaxRetries+1 times.
func (a *api) fetchCfg(ctx context.Context, cfg retryCfg) error {
	var err error
	for attempt := 0; attempt <= cfg.MaxRetries; attempt++ {
		if err = a.once(ctx); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func (a *api) twiceCfg(ctx context.Context, cfg retryCfg) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.fetchCfg(ctx, cfg); err == nil { // want `retry amplification 2×\(cfg.MaxRetries\+1\): this loop \(2 attempts\) calls \(\*cases.api\).fetchCfg, which retries \(attempts: cfg.MaxRetries\+1\)`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// Both counts unknown: a chain of unknowns proves no amplification.
func (a *api) unknownTwice(ctx context.Context, cfg retryCfg, tries int) error {
	var err error
	for attempt := 0; attempt < tries; attempt++ {
		if err = a.fetchCfg(ctx, cfg); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// Layers not taken are not layers (issue 13, rule 4).

// Work started in a background goroutine is not on the caller's path.
func (a *api) startRefresh(ctx context.Context) error {
	go func() {
		_ = a.fetch(ctx)
	}()
	go a.fetch(ctx)
	return a.once(ctx)
}

func (a *api) startTwice(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.startRefresh(ctx); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// A retry loop in a goroutine, and in a callback stored for later.
func (a *api) watchInBackground(ctx context.Context, h *hooks) error {
	go func() {
		for attempt := 0; attempt < 4; attempt++ {
			if err := a.once(ctx); err == nil {
				return
			}
			_ = wait(ctx, attempt)
		}
	}()
	h.onFail = func() {
		_ = a.fetch(ctx)
	}
	return a.once(ctx)
}

type hooks struct{ onFail func() }

func (a *api) watchTwice(ctx context.Context, h *hooks) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.watchInBackground(ctx, h); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// A helper whose retry a constant argument switches off.
func (a *api) call(ctx context.Context, retry bool) error {
	if !retry {
		return a.once(ctx)
	}
	return a.fetch(ctx)
}

func (a *api) callOnce(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.call(ctx, false); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func (a *api) callRetrying(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.call(ctx, true); err == nil { // want `retry amplification 2×4 = 8: this loop \(2 attempts\) calls \(\*cases.api\).call, which retries \(4 attempts\) in \(\*cases.api\).fetch`
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// The same with the loop itself under the switch, and the switch passed on
// by a wrapper.
func (a *api) send(ctx context.Context, retries int) error {
	var err error
	if retries > 0 {
		for attempt := 0; attempt < 3; attempt++ {
			if err = a.once(ctx); err == nil {
				return nil
			}
			if err := wait(ctx, attempt); err != nil {
				return err
			}
		}
		return err
	}
	return a.once(ctx)
}

func (a *api) sendVia(ctx context.Context, retries int) error { return a.send(ctx, retries) }

func (a *api) sendNoRetry(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.sendVia(ctx, 0); err == nil {
			return nil
		}
		if err := wait(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// A function that retries with retry.Do is a retry layer under a loop of
// its caller: the library's own loop, which waits on a clock of its own
// between attempts, retries; it runs no component (issue 13, rule 4).
func (a *api) doThrice(ctx context.Context) error {
	return retry.Do(func() error { return a.once(ctx) }, retry.Attempts(3), retry.Context(ctx))
}

func (a *api) syncTwice(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = a.doThrice(ctx); err == nil { // want `retry amplification 2×3 = 6: this loop \(2 attempts\) calls \(\*cases.api\).doThrice, which retries \(3 attempts\) with retry.Do`
			return nil
		}
		time.Sleep(time.Duration(rand.Intn(100)) * time.Millisecond)
	}
	return err
}

// retry.Do around a retryablehttp send in its own operation: the inner
// layer is the call itself, which retries where it is called, not in a
// function the message should name.
func (a *api) notify(ctx context.Context) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 4
	return retry.Do(func() error {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, a.base, nil)
		if err != nil {
			return err
		}
		resp, err := rc.Do(req) // want `^retry amplification 3×5 = 15: this retry.Do \(3 attempts\) calls retryablehttp \(\*Client\).Do, which retries \(5 attempts\), so a failing dependency gets 15 requests for one call; retry at one layer only$`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retry.Attempts(3), retry.Context(ctx))
}
