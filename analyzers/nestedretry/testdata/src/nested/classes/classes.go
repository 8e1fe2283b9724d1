// Package classes has retry layers that retry only some failures: they
// multiply only where both retry the same failure.
package classes

import (
	"context"
	"errors"
	"io"
	"net/http"
)

var (
	errTransient = errors.New("transient")
	errConflict  = errors.New("conflict")
)

type tempErr struct{ msg string }

func (e *tempErr) Error() string { return e.msg }

type api struct {
	hc   *http.Client
	base string
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

// transientOnly retries 3 times, only errTransient: every other error
// returns at once.
func (a *api) transientOnly(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = a.once(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
	}
	return err
}

// typeOnly retries 3 times, only a *tempErr.
func (a *api) typeOnly(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = a.once(ctx); err == nil {
			return nil
		}
		var te *tempErr
		if !errors.As(err, &te) {
			return err
		}
	}
	return err
}

// eofOnly reads again only on io.EOF.
func (a *api) eofOnly(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = a.once(ctx)
		switch {
		case err == nil:
			return nil
		case err == io.EOF:
			continue
		}
		return err
	}
	return err
}

// every retries any error 4 times.
func (a *api) every(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = a.once(ctx); err == nil {
			return nil
		}
	}
	return err
}

// An outer layer retrying every error multiplies an inner one retrying
// only errTransient: a transient failure gets 2×3.
func (a *api) allOverTransient(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.transientOnly(ctx); err == nil { // want `retry amplification 2×3 = 6`
			return nil
		}
	}
	return err
}

// The same class at both layers multiplies.
func (a *api) transientOverTransient(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.transientOnly(ctx) // want `retry amplification 2×3 = 6`
		if err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
	}
	return err
}

// The outer layer retries only errConflict, the inner only errTransient:
// no failure is retried by both.
func (a *api) conflictOverTransient(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.transientOnly(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return err
}

// An outer layer retrying only *tempErr over an inner retrying only
// errTransient: disjoint.
func (a *api) typeOverSentinel(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.transientOnly(ctx)
		if err == nil {
			return nil
		}
		var te *tempErr
		if errors.As(err, &te) {
			continue
		}
		return err
	}
	return err
}

// The outer retries only errConflict; the inner retries every error: a
// conflict is retried at both.
func (a *api) conflictOverEvery(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.every(ctx) // want `retry amplification 2×4 = 8`
		if err == nil {
			return nil
		}
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return err
}

// An inner layer reading again only on io.EOF under an outer that retries
// only errTransient.
func (a *api) transientOverEOF(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.eofOnly(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, errTransient) {
			continue
		}
		return err
	}
	return err
}

// shouldRetry is a predicate the walk cannot read.
func shouldRetry(err error) bool {
	if err == nil {
		return false
	}
	return len(err.Error())%2 == 0
}

// An outer layer whose retry condition cannot be related to the inner's
// class: no proven product.
func (a *api) opaqueOverType(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.typeOnly(ctx)
		if err == nil {
			return nil
		}
		if !shouldRetry(err) {
			return err
		}
	}
	return err
}

// An opaque outer condition over an inner layer retrying every error: the
// inner retries whatever the outer does.
func (a *api) opaqueOverEvery(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.every(ctx) // want `retry amplification 2×4 = 8`
		if err == nil {
			return nil
		}
		if !shouldRetry(err) {
			return err
		}
	}
	return err
}

// isTransient is a one-statement predicate of the package: read through.
func isTransient(err error) bool { return errors.Is(err, errTransient) }

func (a *api) predicateOverTransient(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.transientOnly(ctx) // want `retry amplification 2×3 = 6`
		if err == nil {
			return nil
		}
		if !isTransient(err) {
			return err
		}
	}
	return err
}

func (a *api) predicateOverType(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		err = a.typeOnly(ctx)
		if err == nil {
			return nil
		}
		if !isTransient(err) {
			return err
		}
	}
	return err
}

// status5xx retries only 5xx responses; an error returns at once.
func (a *api) status5xx(ctx context.Context) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.base, nil)
		resp, err := a.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// The outer layer retries only errConflict over an inner one retrying
// only 5xx statuses: nothing relates them.
func (a *api) conflictOverStatus(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var resp *http.Response
		resp, err = a.status5xx(ctx)
		if err == nil {
			return resp.Body.Close()
		}
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return err
}

// An outer layer retrying every error over the 5xx layer multiplies.
func (a *api) everyOverStatus(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var resp *http.Response
		resp, err = a.status5xx(ctx) // want `retry amplification 2×3 = 6`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return err
}

// options configure a call; Retry switches its retry layer on.
type options struct {
	Retry   bool
	Timeout int
}

func (a *api) callWith(ctx context.Context, opts options) error {
	if !opts.Retry {
		return a.once(ctx)
	}
	return a.every(ctx)
}

// A constant field of an options literal switches the inner layer off.
func (a *api) optionsOff(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.callWith(ctx, options{Retry: false, Timeout: 5}); err == nil {
			return nil
		}
	}
	return err
}

// A field the literal leaves out is false.
func (a *api) optionsOmitted(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.callWith(ctx, options{Timeout: 5}); err == nil {
			return nil
		}
	}
	return err
}

func (a *api) optionsOn(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.callWith(ctx, options{Retry: true}); err == nil { // want `retry amplification 2×4 = 8`
			return nil
		}
	}
	return err
}

// An options value of unknown content: the layer may be taken.
func (a *api) optionsUnknown(ctx context.Context, opts options) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = a.callWith(ctx, opts); err == nil { // want `retry amplification 2×4 = 8`
			return nil
		}
	}
	return err
}
