package interrupt

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestExit(t *testing.T) {
	if Exit(syscall.SIGTERM) != 143 || Exit(os.Interrupt) != 130 || Exit(nil) != 130 {
		t.Errorf("Exit: %d %d %d", Exit(syscall.SIGTERM), Exit(os.Interrupt), Exit(nil))
	}
}

// The first SIGTERM cancels the context and is reported; stop ends the
// watch.
func TestContext(t *testing.T) {
	ctx, signalled, stop := Context(context.Background(), func() {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
	})
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the signal did not cancel the context")
	}
	if signalled() != syscall.SIGTERM {
		t.Errorf("signalled() = %v, want SIGTERM", signalled())
	}
}

// Wait returns what f returned; once the context is done it waits at most
// the grace for f; a panic in f panics in Wait's caller.
func TestWait(t *testing.T) {
	if v, ok := Wait(context.Background(), time.Second, func() int { return 7 }); v != 7 || !ok {
		t.Errorf("Wait: %d, %v; want 7, true", v, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	release := make(chan struct{})
	defer close(release)
	// f is stuck until the test ends: Wait returning at all is the grace.
	if v, ok := Wait(ctx, 10*time.Millisecond, func() int { <-release; return 7 }); v != 0 || ok {
		t.Errorf("Wait on a stuck f after the signal: %d, %v; want 0, false", v, ok)
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want boom", p)
		}
	}()
	Wait(context.Background(), time.Second, func() int { panic("boom") })
	t.Error("Wait returned after f panicked")
}
