package fetch

import (
	"testing"

	"example.com/testonly/helper"
)

func TestGet(t *testing.T) { helper.Run(t, Get) }
