// Package harness is test infrastructure: it imports package testing, so
// its findings are test findings (reported only with -include-tests).
package harness

import (
	"net/http"
	"testing"
)

type Server struct {
	T   *testing.T
	URL string
}

func (s *Server) WaitReady() {
	resp, err := http.Get(s.URL + "/ready")
	if err != nil {
		s.T.Fatal(err)
	}
	resp.Body.Close()
}

// A helper that takes *testing.T is test code.
func checkServer(t *testing.T, url string) {
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
