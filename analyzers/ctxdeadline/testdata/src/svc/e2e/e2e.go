// Package e2e is an end-to-end suite's support code: "e2e" in its import
// path marks it as test infrastructure, so its findings are test findings.
package e2e

import "net/http"

func WaitReady(url string) error {
	resp, err := http.Get(url + "/ready")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
