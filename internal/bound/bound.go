// Package bound runs work within a time bound: what a conversion or a
// check still running when its bound passes returns at once, and its work
// is abandoned, to stop at the next point it checks its context.
package bound

import (
	"context"
	"time"
)

// Run returns fn's value, fn running with a context that is done when ctx
// is or after timeout (0 or less: no bound but ctx's). When that context
// is done before fn returns, Run returns its error (context.DeadlineExceeded
// once timeout passed) at once, and fn runs on in its goroutine until it
// notices; what it then returns is dropped, and a panic in it is
// recovered. A panic in fn before that is raised again in Run's caller.
func Run[T any](ctx context.Context, timeout time.Duration, fn func(context.Context) T) (T, error) {
	if timeout <= 0 {
		return fn(ctx), nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type outcome struct {
		v        T
		panicked bool
		p        any
	}
	done := make(chan outcome, 1) // buffered: an abandoned fn never blocks
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panicked: true, p: p}
			}
		}()
		done <- outcome{v: fn(ctx)}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		select {
		case o = <-done: // finished just then
		default:
			var zero T
			return zero, ctx.Err()
		}
	}
	if o.panicked {
		panic(o.p)
	}
	return o.v, nil
}
