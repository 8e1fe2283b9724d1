package loops

import (
	"net/http"
	"time"
)

func changed(*http.Response) bool { return true }

// Rule 3: a watch that polls at a cadence (it waits on rounds where the
// call succeeded too) and waits no shorter after a failure adds no load by
// failing: its failure wait is its cadence, no retry.
func watchSameCadence(url string, every time.Duration, once bool) {
	for {
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(every)
			continue
		}
		resp.Body.Close()
		if !changed(resp) {
			time.Sleep(every)
			continue
		}
		if once {
			return
		}
	}
}

func tailSlowerOnFailure(url string, once bool) {
	for {
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		if !changed(resp) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if once {
			return
		}
	}
}

// A failure wait shorter than the cadence polls faster while failing: a
// retry, reported.
func tailFasterOnFailure(url string, once bool) {
	for {
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(100 * time.Millisecond) // want `waits the same 100 \* time.Millisecond before every attempt`
			continue
		}
		resp.Body.Close()
		if !changed(resp) {
			time.Sleep(time.Second)
			continue
		}
		if once {
			return
		}
	}
}
