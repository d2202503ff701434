package bound

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRunBound: fn's value within the bound; past it, DeadlineExceeded at
// once, and fn's context is done, so work that checks it stops.
func TestRunBound(t *testing.T) {
	v, err := Run(context.Background(), time.Minute, func(context.Context) int { return 7 })
	if v != 7 || err != nil {
		t.Fatalf("Run = %d, %v; want 7, nil", v, err)
	}
	stopped := make(chan error, 1)
	_, err = Run(context.Background(), time.Millisecond, func(ctx context.Context) int {
		for ctx.Err() == nil { // a loop that checks its context
			time.Sleep(time.Millisecond)
		}
		stopped <- ctx.Err()
		return 0
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run past its bound: %v, want DeadlineExceeded", err)
	}
	if err := <-stopped; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("abandoned work saw %v, want DeadlineExceeded", err)
	}
	v, err = Run(context.Background(), 0, func(ctx context.Context) int {
		if _, ok := ctx.Deadline(); ok {
			return 1
		}
		return 2
	})
	if v != 2 || err != nil {
		t.Errorf("Run without a bound = %d, %v; want 2 (no deadline), nil", v, err)
	}
}

// TestRunPanic: a panic in fn is raised again in the caller; one in fn
// after it was abandoned is recovered (the process goes on).
func TestRunPanic(t *testing.T) {
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want boom", p)
			}
		}()
		Run(context.Background(), time.Minute, func(context.Context) int { panic("boom") })
		t.Error("Run returned after a panic")
	}()
	release := make(chan struct{})
	done := make(chan struct{})
	_, err := Run(context.Background(), time.Millisecond, func(context.Context) int {
		defer close(done)
		<-release
		panic("late")
	})
	if err == nil {
		t.Fatal("Run past its bound: nil error")
	}
	close(release)
	<-done
}
