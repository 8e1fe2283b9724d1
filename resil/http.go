package resil

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// An HTTPError is a non-success HTTP status turned into an error by
// [CheckResponse]. Retry classifies it with [RetryableStatus].
type HTTPError struct {
	StatusCode int
	Status     string        // e.g. "503 Service Unavailable"
	Method     string        // request method, if known
	URL        string        // request URL without query, if known
	After      time.Duration // parsed Retry-After, 0 if absent
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString("resil: HTTP ")
	if e.Status != "" {
		b.WriteString(e.Status)
	} else {
		b.WriteString(strconv.Itoa(e.StatusCode))
	}
	if e.Method != "" || e.URL != "" {
		b.WriteString(" from ")
		b.WriteString(e.Method)
		b.WriteString(" ")
		b.WriteString(e.URL)
	}
	return b.String()
}

// RetryAfter returns the server's Retry-After delay (0 if it sent none).
func (e *HTTPError) RetryAfter() time.Duration { return e.After }

// maxDrain bounds how much of an error response body CheckResponse reads so
// the connection can be reused.
const maxDrain = 64 << 10

// ErrNilResponse is returned by [CheckResponse] for a nil response.
var ErrNilResponse = errors.New("resil: nil *http.Response")

// CheckResponse classifies an HTTP response for Retry:
//
//   - 1xx, 2xx and 3xx: nil; the caller owns resp.Body as usual.
//   - 4xx other than 408, 425 and 429: a [Permanent] [*HTTPError] (the
//     request is wrong; repeating it cannot help).
//   - 408, 425, 429 and 5xx: a retryable [*HTTPError] carrying the
//     Retry-After header (delta-seconds or HTTP-date), if any. 501 and 505
//     are permanent (see [RetryableStatus]).
//
// When it returns an error, CheckResponse has drained (up to 64 KiB) and
// closed resp.Body, so returning its error from a retry loop leaks neither a
// body nor a connection.
func CheckResponse(resp *http.Response) error {
	if resp == nil {
		return ErrNilResponse
	}
	if resp.StatusCode < 400 {
		return nil
	}
	e := &HTTPError{StatusCode: resp.StatusCode, Status: resp.Status}
	if r := resp.Request; r != nil {
		e.Method = r.Method
		if r.URL != nil {
			u := *r.URL
			u.RawQuery, u.Fragment, u.User = "", "", nil
			e.URL = u.String()
		}
	}
	if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.After = d
	}
	if resp.Body != nil {
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
		_ = resp.Body.Close()
	}
	if !RetryableStatus(resp.StatusCode) {
		return Permanent(e)
	}
	return e
}

// RetryableStatus reports whether an HTTP status is worth retrying: 408
// Request Timeout, 425 Too Early, 429 Too Many Requests, and every 5xx
// except 501 Not Implemented and 505 HTTP Version Not Supported (which
// repeat deterministically). Success and redirect codes are not errors and
// report false, as do all other 4xx.
func RetryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return false
	}
	return code >= 500 && code <= 599
}

// ParseRetryAfter parses a Retry-After header value, either delta-seconds
// ("120") or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT", relative to
// now). A date in the past yields 0. ok is false for an empty or malformed
// value.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64((1<<63-1)/time.Second) {
			return time.Duration(1<<63 - 1), true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}
