// Package fetch has a finding in its production code; its test imports a
// package of a module that go.mod does not require.
package fetch

import "net/http"

func Get(url string) (*http.Response, error) { return http.Get(url) }
