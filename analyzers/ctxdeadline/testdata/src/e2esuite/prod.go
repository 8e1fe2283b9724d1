package e2esuite

import "net/http"

// A file of the same package that imports no test framework is production
// code.
func Fetch(url string) (*http.Response, error) {
	return http.Get(url) // want `http.Get has no deadline`
}
