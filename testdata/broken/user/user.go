package user

import (
	"net/http"

	"example.com/broken/bad"
)

func Get(url string) (*http.Response, error) { _ = bad.F(); return http.Get(url) }
