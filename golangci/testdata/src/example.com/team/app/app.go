package app

import "example.com/team/wrap"

func Notify() error {
	return wrap.Call("billing") // want `wrap.Call has no deadline`
}

func Quiet() error {
	return wrap.Call("audit") //nolint:resilint // handled by golangci-lint and by the analyzer alike
}
