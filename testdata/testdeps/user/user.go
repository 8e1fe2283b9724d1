// Package user imports fetch: its findings need fetch's facts.
package user

import (
	"net/http"

	"example.com/testdeps/fetch"
)

func Load(url string) (*http.Response, error) { return fetch.Get(url) }
