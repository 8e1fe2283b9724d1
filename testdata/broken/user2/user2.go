package user2

import (
	"net/http"

	"example.com/broken/user"
)

func Get(url string) (*http.Response, error) { user.Get(url); return http.Get(url) }
