package app

import (
	"testing"

	"example.com/scope/support"
)

func TestPing(t *testing.T) { support.Open() }
