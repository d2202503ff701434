//go:build !unix

package batch

import "time"

// processCPU reports that this process's CPU time cannot be read here.
func processCPU() (time.Duration, bool) { return 0, false }
