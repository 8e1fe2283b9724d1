// Package attest is production code.
package attest

import "net/http"

func Fetch(url string) error {
	resp, err := http.Get(url) // want `http.Get has no deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
