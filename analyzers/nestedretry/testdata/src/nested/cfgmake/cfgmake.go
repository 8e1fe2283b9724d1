// Package cfgmake loops around retryablehttp clients made by another
// package's constructors: their configuration comes through facts.
package cfgmake

import (
	"time"

	"nested/cfgmake/transport"
)

func count(base string) error {
	rc := transport.NewSingleShot()
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = rc.Get(base + "/count"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func list(base string) error {
	rc := transport.NewRetrying()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = rc.Get(base + "/items"); err == nil { // want `retry amplification 3×5 = 15: this loop \(3 attempts\) calls retryablehttp \(\*Client\).Get, which retries \(5 attempts\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
