// Package attest is production code: only whole path elements such as
// "test" or "e2e" mark test infrastructure, not a name that contains them.
package attest

import "net/http"

func Fetch(url string) error {
	resp, err := http.Get(url) // want `http.Get has no deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
