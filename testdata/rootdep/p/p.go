// Package p has a finding and no test files; package r imports it.
package p

import "net/http"

func Get(u string) (*http.Response, error) { return http.Get(u) }
