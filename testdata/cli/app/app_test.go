package app

import (
	"net/http"
	"testing"
)

func TestPing(t *testing.T) {
	resp, err := http.Get("http://localhost:1")
	if err == nil {
		resp.Body.Close()
	}
}
