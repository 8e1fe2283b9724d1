// Package onlytests has test files only.
package onlytests

import "testing"

func TestNothing(t *testing.T) {}
