package guardvia // want package:"guards function arguments with breakers"

// Package guardvia wraps package guard's helpers; it imports no breaker
// library itself.

import "guard"

// Via runs fn through the guard it is given.
func Via(g *guard.Guard, fn func() (any, error)) (any, error) { return g.Do(fn) } // want Via:"guards param1 with param0.cb"
