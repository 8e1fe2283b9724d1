package resil

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

type trackedBody struct {
	io.Reader
	closed bool
}

func (b *trackedBody) Close() error { b.closed = true; return nil }

func response(code int, header ...string) (*http.Response, *trackedBody) {
	body := &trackedBody{Reader: strings.NewReader("payload")}
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	u, _ := url.Parse("https://api.example/v1/items?token=secret")
	return &http.Response{
		StatusCode: code, Status: http.StatusText(code), Header: h, Body: body,
		Request: &http.Request{Method: "GET", URL: u},
	}, body
}

func TestCheckResponse(t *testing.T) {
	for _, code := range []int{200, 204, 301, 304} {
		resp, body := response(code)
		if err := CheckResponse(resp); err != nil || body.closed {
			t.Errorf("%d: err=%v closed=%v, want nil and the body left open", code, err, body.closed)
		}
	}
	for code, retryable := range map[int]bool{400: false, 401: false, 404: false, 409: false, 408: true, 425: true, 429: true, 500: true, 501: false, 502: true, 503: true, 504: true, 505: false} {
		resp, body := response(code)
		err := CheckResponse(resp)
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != code {
			t.Errorf("%d: err=%v, want an *HTTPError", code, err)
			continue
		}
		if Retryable(err) != retryable || IsPermanent(err) == retryable {
			t.Errorf("%d: Retryable=%v IsPermanent=%v, want retryable=%v", code, Retryable(err), IsPermanent(err), retryable)
		}
		if !body.closed {
			t.Errorf("%d: body not closed on error", code)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%d: error leaks the query string: %v", code, err)
		}
	}
	if err := CheckResponse(nil); err != ErrNilResponse {
		t.Errorf("nil response: %v", err)
	}
}

func TestCheckResponseRetryAfter(t *testing.T) {
	resp, _ := response(429, "Retry-After", "7")
	if d, ok := retryAfterOf(CheckResponse(resp)); !ok || d != 7*time.Second {
		t.Errorf("Retry-After seconds: %v %v", d, ok)
	}
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	resp, _ = response(503, "Retry-After", date)
	if d, ok := retryAfterOf(CheckResponse(resp)); !ok || d < 80*time.Second || d > 90*time.Second {
		t.Errorf("Retry-After date: %v %v", d, ok)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in string
		d  time.Duration
		ok bool
	}{
		{"0", 0, true},
		{" 120 ", 2 * time.Minute, true},
		{"-1", 0, false},
		{"", 0, false},
		{"soon", 0, false},
		{"99999999999999999", time.Duration(1<<63 - 1), true},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Friday, 02-Jan-26 03:05:05 GMT", time.Minute, true}, // RFC 850
	}
	for _, c := range cases {
		if d, ok := ParseRetryAfter(c.in, now); d != c.d || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, d, ok, c.d, c.ok)
		}
	}
}

func TestRetryableStatus(t *testing.T) {
	for code := 100; code < 600; code++ {
		want := code == 408 || code == 425 || code == 429 || (code >= 500 && code != 501 && code != 505)
		if RetryableStatus(code) != want {
			t.Errorf("RetryableStatus(%d) = %v", code, !want)
		}
	}
}
