// Package cycles: places of functions that call each other. In a cycle,
// one remote call makes every function of the cycle remote, and without one
// the cycle's place is unknown, whichever function is asked first; each
// body is read once (before, an unknown inside a cycle was not kept, and a
// large cycle took exponential time: a public module's 21 packages ran for
// more than 10 minutes).
package cycles

import (
	"net/http"
	"os"
)

type op interface{ Run() }

var hc = &http.Client{}

// R1..R14 all call each other and an interface method; R1 also sends a
// request: all are remote.

func R1(x op) { // want R1:"place remote"
	x.Run()
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
	_, _ = hc.Get("http://api.example.com/")
}

func R2(x op) { // want R2:"place remote"
	x.Run()
	R1(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R3(x op) { // want R3:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R4(x op) { // want R4:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R5(x op) { // want R5:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R6(x op) { // want R6:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R7(x op) { // want R7:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R8(x op) { // want R8:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R9(x op) { // want R9:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R10(x op) { // want R10:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R11(x)
	R12(x)
	R13(x)
	R14(x)
}

func R11(x op) { // want R11:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R12(x)
	R13(x)
	R14(x)
}

func R12(x op) { // want R12:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R13(x)
	R14(x)
}

func R13(x op) { // want R13:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R14(x)
}

func R14(x op) { // want R14:"place remote"
	x.Run()
	R1(x)
	R2(x)
	R3(x)
	R4(x)
	R5(x)
	R6(x)
	R7(x)
	R8(x)
	R9(x)
	R10(x)
	R11(x)
	R12(x)
	R13(x)
}

// U1..U14: the same cycle without a remote call: unknown, no fact.

func U1(x op) {
	x.Run()
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U2(x op) {
	x.Run()
	U1(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U3(x op) {
	x.Run()
	U1(x)
	U2(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U4(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U5(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U6(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U7(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U8(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U9(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U10(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U11(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U11(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U12(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U12(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U13(x)
	U14(x)
	_ = os.Remove("f")
}

func U13(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U14(x)
	_ = os.Remove("f")
}

func U14(x op) {
	x.Run()
	U1(x)
	U2(x)
	U3(x)
	U4(x)
	U5(x)
	U6(x)
	U7(x)
	U8(x)
	U9(x)
	U10(x)
	U11(x)
	U12(x)
	U13(x)
	_ = os.Remove("f")
}

// Local calls outside a cycle, and a function that only calls local work:
// local.
func L1() { L2(); _ = os.Remove("a") } // want L1:"place local"

func L2() { _ = os.Remove("b") } // want L2:"place local"

// Self calls a function literal that calls itself: no endless descent.
func Self(n int) { // want Self:"place remote"
	var walk func(n int)
	walk = func(n int) {
		if n > 0 {
			walk(n - 1)
		}
		_, _ = hc.Get("http://api.example.com/")
	}
	walk(n)
}
