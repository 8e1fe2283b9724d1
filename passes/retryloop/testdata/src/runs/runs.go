// Package runs: RunsFact for a chain of calls that ends in a server's Serve.
// The model follows calls four deep, so F2 (four calls above Serve) runs
// and F1 does not. Asked in any order — the model asks in a map's order —
// the answers are the same (an answer cut short deep in one question is not
// the answer to another).
package runs

import "net/http"

var srv = &http.Server{}

func F0() { F1() }
func F1() { F2() }
func F2() { F3() }               // want F2:"runs until its stream ends"
func F3() { F4() }               // want F3:"runs until its stream ends"
func F4() { F5() }               // want F4:"runs until its stream ends"
func F5() { F6() }               // want F5:"runs until its stream ends"
func F6() { _ = srv.Serve(nil) } // want F6:"runs until its stream ends"

// A cycle that never serves: no fact, whichever is asked first.
func G0() { G1() }
func G1() { G0() }
