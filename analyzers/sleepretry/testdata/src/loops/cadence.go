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

func parse(*http.Response) (string, error) { return "", nil }

// The wait when nothing changed comes before the second operation whose
// outcome the loop reads (parsing what changed): it is on the first
// call's success path only, a cadence.
func watchThenParse(url string, every time.Duration, once bool, out chan<- string) {
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
		v, err := parse(resp)
		if err != nil {
			continue
		}
		out <- v
		if once {
			return
		}
	}
}

// A wait after the second operation failed is on its failure path: a
// retry, reported.
func readThenWrite(url string, every time.Duration) {
	for { // want `waits the same every before every attempt`
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(every)
			continue
		}
		resp.Body.Close()
		if _, err := http.Post(url, "text/plain", nil); err != nil {
			time.Sleep(every)
			continue
		}
		return
	}
}
