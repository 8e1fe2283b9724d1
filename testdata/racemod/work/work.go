// Package work imports none of the outbound packages, so the shared
// context model skips it, yet several analyzers read it at once: the
// goroutine and retry checks both need its variable index.
package work

import (
	"errors"
	"sync"
	"time"
)

type job struct{ id int }

func (j job) run() error { return errors.New("busy") }

// Retry a local operation: retryloop resolves callees here.
func Retry(j job) error {
	call := j.run
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
	return err
}

// Fan-out: unboundedfanout builds the index for this package.
func All(jobs []job) {
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Retry(j)
		}()
	}
	wg.Wait()
}
