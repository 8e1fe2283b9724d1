package loops

import (
	"context"
	"net/http"
	"strconv"
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

// A tail that reads the page it fetched (the reads of its results share
// the call's error variable, and succeed when the call does; a test of what
// they read decides nothing about the outcome), hands each entry to a
// callback whose failure ends the loop, and waits when there was nothing
// new: that wait is on the success path of the attempt, the loop's
// cadence; a failure waits longer. No retry.
func tailThenIdle(url string, handle func(int) error) error {
	first := 0
	for {
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		next, err := strconv.Atoi(resp.Header.Get("Next"))
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		n, err := strconv.Atoi(resp.Header.Get("Count"))
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if first == 0 {
			first = next - n + 1
		} else if next-n+1 > first {
			first = 0 // truncated: start again
			continue
		}
		for i := 0; i < n; i++ {
			if err := handle(next + i); err != nil {
				return err
			}
		}
		if n == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// The same tail waiting less after a failure than when idle polls faster
// while failing: a retry, reported.
func tailThenIdleFaster(url string, handle func(int) error) error {
	for { // want `waits the same 10 \* time.Millisecond before every attempt`
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		resp.Body.Close()
		n, err := strconv.Atoi(resp.Header.Get("Count"))
		if err != nil {
			continue
		}
		for i := 0; i < n; i++ {
			if err := handle(i); err != nil {
				return err
			}
		}
		if n == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// A wait after a callback whose failure goes round is that failure's: the
// loop retries, reported.
func tailRetriesCallback(url string, handle func(*http.Response) error) {
	for { // want `waits the same time.Second before every attempt`
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := handle(resp); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

type cmd struct{ v string }

func (c *cmd) Result() (int, error) { return strconv.Atoi(c.v) }

func fetchCmds(ctx context.Context, url string) ([]*cmd, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return []*cmd{{resp.Header.Get("Last")}, {resp.Header.Get("Len")}}, nil
}

// The same tail over the results of a batch of commands, read with their
// own methods: no retry.
func tailCmds(ctx context.Context, url string, handle func(int) error) error {
	first := 0
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rs, err := fetchCmds(ctx, url)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		last, err := strconv.Atoi(rs[0].v)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		n, err := rs[1].Result()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if first == 0 {
			first = last - n + 1
		} else if last-n+1 > first {
			first = 0
			continue
		}
		for i := 0; i < n; i++ {
			if err := handle(first + i); err != nil {
				return err
			}
		}
		if n == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
}
