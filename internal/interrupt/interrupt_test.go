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
