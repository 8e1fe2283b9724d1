// Package rawconn: reads from a connection the function dials itself. A
// dial's timeout bounds the connect only; the read waits for the server
// until a deadline set on the connection ends it (issue 13, rule 2).
package rawconn

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"time"
)

func ping(addr string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("PING\r\n")); err != nil {
		return "", err
	}
	return bufio.NewReader(conn).ReadString('\n') // want `bufio.NewReader\(conn\).ReadString waits for the server on conn, which has no read deadline \(the dial's timeout bounds only the connect\): a server that accepts and then stays silent holds this read until the connection is closed; call conn.SetReadDeadline`
}

// The deadline set before the reads bounds them.
func pingDeadline(addr string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	conn.Write([]byte("PING\r\n"))
	return bufio.NewReader(conn).ReadString('\n')
}

func status(ctx context.Context, addr string) (map[string]any, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	io.WriteString(conn, "status\n")
	var v map[string]any
	dec := json.NewDecoder(conn)
	err = dec.Decode(&v) // want `dec.Decode waits for the server on conn, which has no read deadline: a server`
	return v, err
}

// A deadline set only after the first read does not bound it.
func lateDeadline(addr string) ([]byte, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(conn, head); err != nil { // want `io.ReadFull waits for the server on conn`
		return nil, err
	}
	conn.SetReadDeadline(time.Now().Add(time.Second))
	return io.ReadAll(conn)
}

func handshake(addr string, cfg *tls.Config) error {
	raw, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer raw.Close()
	tc := tls.Client(raw, cfg)
	return tc.Handshake() // want `tc.Handshake waits for the server on raw`
}

// A read loop that sets the deadline before each read is bounded.
func readLoop(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	buf := make([]byte, 512)
	for {
		conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := conn.Read(buf); err != nil {
			return err
		}
	}
}

// Unknown: a connection handed to another function, stored, returned,
// watched by a closure or assigned again may get its deadline, or be
// closed, out of sight.
func handed(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	prepare(conn)
	_, err = io.ReadAll(conn)
	return err
}

func prepare(c net.Conn) { c.SetDeadline(time.Now().Add(time.Second)) }

func watched(ctx context.Context, addr string) ([]byte, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	return io.ReadAll(conn)
}

type session struct{ conn net.Conn }

func (s *session) open(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	s.conn = conn
	_, err = io.ReadAll(conn)
	return err
}

func reassigned(addr string, other net.Conn) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	conn = other
	_, err = io.ReadAll(conn)
	return err
}

// Local: a loopback or unix-socket peer is no dependency.
func local() ([]byte, error) {
	conn, err := net.DialTimeout("tcp", "127.0.0.1:7000", time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return io.ReadAll(conn)
}

func unixPeer() ([]byte, error) {
	conn, err := net.DialTimeout("unix", "/run/agent.sock", time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return io.ReadAll(conn)
}
