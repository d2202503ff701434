package batch

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestGuardGC: with a soft limit below the live heap, GuardGC lifts the
// limit and paces the collector by GuardGCPercent after a collection, and
// its stop puts both back.
func TestGuardGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(16 << 20))
	stop := GuardGC()
	live := make([][]byte, 16)
	for i := range live {
		live[i] = make([]byte, 1<<20) // 16 MB kept live
	}
	lifted := false
	for range 100 {
		runtime.GC()
		runtime.Gosched()
		if debug.SetMemoryLimit(-1) == math.MaxInt64 {
			lifted = true
			break
		}
	}
	if !lifted {
		t.Fatalf("limit with 16 MB live: %d, want it lifted", debug.SetMemoryLimit(-1))
	}
	if got := debug.SetGCPercent(400); got != GuardGCPercent {
		t.Errorf("GC percent once lifted: %d, want %d", got, GuardGCPercent)
	}
	debug.SetGCPercent(GuardGCPercent)
	stop()
	if got := debug.SetMemoryLimit(-1); got != 16<<20 {
		t.Errorf("limit after stop: %d, want %d", got, 16<<20)
	}
	if got := debug.SetGCPercent(400); got != 400 {
		t.Errorf("GC percent after stop: %d, want 400", got)
	}
	runtime.KeepAlive(live)
}

// TestUntune: Untune gives Go's collector defaults back for an input of
// LargeInput bytes or more, and leaves a smaller one's tuning be.
func TestUntune(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	TuneGC(0)
	Untune(LargeInput - 1)
	if p, l := debug.SetGCPercent(GCPercent), debug.SetMemoryLimit(-1); p != GCPercent || l != MemoryLimit(0) {
		t.Errorf("after Untune(%d): GOGC %d, limit %d; want the tuning kept", LargeInput-1, p, l)
	}
	Untune(LargeInput)
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
		t.Errorf("after Untune(%d): GOGC %d, limit %d; want Go's defaults", LargeInput, p, l)
	}
}
