package xfetch_test

import (
	"testing"

	"example.com/testdeps/xfetch"
	"example.com/testonly/helper"
)

func TestHead(t *testing.T) { helper.Run(t, xfetch.Head) }
