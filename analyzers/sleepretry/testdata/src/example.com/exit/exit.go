// Package exit ends the process after running its exit handlers, through a
// variable that tests may replace but nothing in the package assigns.
package exit

import (
	"log"
	"os"
)

var osExit = os.Exit

// Exit ends the process.
func Exit(code int) { osExit(code) }

// Fatal logs and ends the process.
func Fatal(v ...any) {
	log.Print(v...)
	Exit(1)
}

// Warn only logs.
func Warn(v ...any) { log.Print(v...) }

var exitFn = os.Exit

// SetExit replaces what Die calls: Die may return.
func SetExit(f func(int)) { exitFn = f }

// Die calls whatever exitFn holds.
func Die() { exitFn(1) }

// Check ends the process only when there is an error: it may return.
func Check(err error) {
	if err == nil {
		return
	}
	Fatal(err)
}
