package helpers

import (
	"context"
	"net/http"
	"testing"
)

// Findings in _test.go files are not reported by default.
func TestPing(t *testing.T) {
	resp, err := http.Get("http://localhost")
	if err == nil {
		resp.Body.Close()
	}
	var v any
	_ = getJSON(context.Background(), "http://x", &v)
}
