//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package driver

import "syscall"

const ioctlGetTermios = syscall.TIOCGETA
