// Package e2e is code in a directory named e2e: a name decides nothing
// (issue 13.7). Whether it is test code depends on who imports it, which
// the command knows (a package only tests import is test code); the
// analyzer alone reports it.
package e2e

import "net/http"

func WaitReady(url string) error {
	resp, err := http.Get(url + "/ready") // want `http.Get has no deadline`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
