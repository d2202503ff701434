// Package interrupt stops work on the first SIGINT or SIGTERM, and says
// which it was with the exit codes shells report.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Exit codes of a command stopped by a signal: 128 + the signal's number,
// as shells report it.
const (
	ExitInterrupted = 130 // SIGINT (^C)
	ExitTerminated  = 143 // SIGTERM
)

// Exit is the exit code for a command stopped by sig.
func Exit(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}

// Context returns a context cancelled by the first SIGINT or SIGTERM, a
// function that says which one it was (nil before one came), and stop,
// which ends the watch. After the first signal the signals act as usual
// again: a second kills. ready, when not nil, is called once the signals
// are watched (a test sends one from it).
func Context(parent context.Context, ready func()) (ctx context.Context, signalled func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	quit := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			got.Store(sig)
			signal.Stop(ch)
			cancel()
		case <-quit:
		}
	}()
	if ready != nil {
		ready()
	}
	var once sync.Once
	return ctx, func() os.Signal {
			sig, _ := got.Load().(os.Signal)
			return sig
		}, func() {
			once.Do(func() {
				signal.Stop(ch)
				close(quit)
				cancel()
			})
		}
}

// Wait runs f in a goroutine of its own and returns what it returned,
// and true. Once ctx is done (a signal came), Wait waits at most grace
// more: if f has not returned by then, Wait returns the zero T and false,
// leaving it unfinished. A panic in f panics again in Wait's goroutine,
// so that the caller's recover sees it.
func Wait[T any](ctx context.Context, grace time.Duration, f func() T) (T, bool) {
	type outcome struct {
		v        T
		panicked bool
		p        any
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panicked: true, p: p}
			}
		}()
		done <- outcome{v: f()}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		select {
		case o = <-done:
		case <-time.After(grace):
			var zero T
			return zero, false
		}
	}
	if o.panicked {
		panic(o.p)
	}
	return o.v, true
}
