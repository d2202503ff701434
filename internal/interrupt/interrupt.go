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
