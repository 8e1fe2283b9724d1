// Package xfetch has a finding in its production code; its external test
// imports a package of a module that go.mod does not require.
package xfetch

import "net/http"

func Head(url string) (*http.Response, error) { return http.Head(url) }
