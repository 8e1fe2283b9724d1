// Package custom uses a team's own breaker type.
package custom

import (
	"net/http"

	"example.com/mybreaker"
)

var cb = &mybreaker.Breaker{}

func Both() {
	cb.Call(func() error { _, err := http.Get("https://a.example.com/x"); return err })
	cb.Call(func() error { _, err := http.Get("https://b.example.com/y"); return err }) // want `breaker cb guards b.example.com here but a.example.com`
}

func TwoStep() {
	done, err := cb.Begin() // want `breaker cb guards c.example.com here but a.example.com`
	if err != nil {
		return
	}
	_, err = http.Get("https://c.example.com")
	done(err == nil)
}
