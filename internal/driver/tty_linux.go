package driver

import "syscall"

const ioctlGetTermios = syscall.TCGETS
