//go:build unix

package batch

import (
	"errors"
	"syscall"
)

// processRunning reports whether a process with this ID runs on this
// machine (signal 0 checks without sending anything; EPERM means it
// exists but belongs to another user).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
