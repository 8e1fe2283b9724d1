package loops

import (
	"context"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Retrying or waiting on local work is not sleepretry's business (issue 13,
// rule 1): the file system, subprocesses, unix sockets, loopback
// addresses, in-process state.

// A subprocess, directly and through a function of the package.
func gitPush(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = exec.CommandContext(ctx, "git", "push").Run(); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
	return err
}

type gitClient struct{ dir string }

func (g *gitClient) push(ctx context.Context, remote string) error {
	cmd := exec.CommandContext(ctx, "git", "push", remote)
	cmd.Dir = g.dir
	return cmd.Run()
}

func (g *gitClient) pushRetry(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = g.push(ctx, "origin"); err == nil {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
	return err
}

// A local daemon's unix socket, and a loopback address.
func dialDaemon() (net.Conn, error) {
	for {
		c, err := net.Dial("unix", "/run/daemon.sock")
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func waitHealthy() error {
	for attempt := 0; attempt < 50; attempt++ {
		resp, err := http.Get("http://127.0.0.1:8080/healthz")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errTimedOut
}

// A team's retry helper whose every caller hands it local work.
func retryLocal(f func() error) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

func removeDevice(path string) error {
	return retryLocal(func() error { return os.Remove(path) })
}

func renameAll(from, to string) error {
	return retryLocal(func() error { return os.Rename(from, to) })
}

// A library helper retrying local work.
func removeWithBackoff(path string) error {
	return backoff.Retry(func() error { return os.RemoveAll(path) }, backoff.NewConstantBackOff(100*time.Millisecond))
}

// A remote call is still reported.
func remoteHealthy() error {
	for attempt := 0; attempt < 50; attempt++ {
		resp, err := http.Get("https://api.example.com/healthz")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Duration(100+rand.Intn(10)) * time.Millisecond)
		time.Sleep(100 * time.Millisecond) // want `retry loop waits the same 100 \* time.Millisecond before every attempt`
	}
	return errTimedOut
}

// A local function value whose literal runs a subprocess: what it calls
// is where the call goes: its literal's body.
func gitFetchClosure(ctx context.Context) error {
	run := func() error { return exec.CommandContext(ctx, "git", "fetch").Run() }
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = run(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A closure calling a remote host is still reported.
func remoteClosure(ctx context.Context) error {
	check := func() error {
		resp, err := http.Get("https://api.example.com/healthz")
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	for attempt := 0; attempt < 10; attempt++ {
		if err := check(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry loop waits the same time.Second before every attempt`
	}
	return errTimedOut
}

// net.DialUnix dials a unix socket whatever its arguments.
func dialUnixSocket(path string) (net.Conn, error) {
	for attempt := 0; attempt < 10; attempt++ {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		if err == nil {
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errTimedOut
}
