package loops

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

// A device-flow token poll: a failure to reach the server leaves the loop;
// what goes round is the server's answer that the user has not approved
// yet. The loop polls for a state, it retries no failed operation (issue
// 13, rule 3).

type tokenAnswer struct {
	Token string `json:"access_token"`
	Error string `json:"error"`
}

var errPending = errors.New("authorization pending")

func decodeToken(resp *http.Response) (string, error) {
	defer resp.Body.Close()
	var a tokenAnswer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return "", err
	}
	if a.Error != "" {
		return "", errPending
	}
	return a.Token, nil
}

func pollToken(ctx context.Context, hc *http.Client, code string, interval time.Duration) (string, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example.com/token", strings.NewReader("device_code="+code))
		if err != nil {
			return "", err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return "", err
		}
		tok, err := decodeToken(resp)
		if err == nil {
			return tok, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(interval):
		}
	}
}

// The same loop going round on a failure to reach the server too: a retry.
func retryToken(ctx context.Context, hc *http.Client, code string) (string, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example.com/token", strings.NewReader("device_code="+code))
		if err != nil {
			return "", err
		}
		resp, err := hc.Do(req)
		if err == nil {
			if tok, err := decodeToken(resp); err == nil {
				return tok, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(5 * time.Second): // want `retry loop waits the same 5 \* time.Second before every attempt`
		}
	}
}

// The same poll through a transport the module abstracts: where the
// transport goes is unknown, but its failures leave the loop, and what goes
// round is the decoded answer.
type tokenTransport interface {
	Do(req *http.Request) (*http.Response, error)
}

func pollTokenVia(ctx context.Context, t tokenTransport, code string, interval time.Duration) (string, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example.com/token", strings.NewReader("device_code="+code))
		if err != nil {
			return "", err
		}
		resp, err := t.Do(req)
		if err != nil {
			return "", err
		}
		tok, err := decodeToken(resp)
		if err == nil {
			return tok, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(interval):
		}
	}
}
