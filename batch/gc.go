package batch

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
)

// GCPercent, MemoryLimitBase and MemoryLimitPerProject tune the garbage
// collector for a batch (TuneGC). A batch keeps little live data (each
// project's manifest is staged on disk, its declared paths spooled), so a
// larger GC target leaves the second core to a worker rather than to the
// collector (on the corpus, --jobs 2 goes from about 1.45x to 1.6x the
// speed of --jobs 1), while the soft memory limit keeps the peak RSS near
// 90 MB. What a batch does keep grows with the projects (the report
// entry, the hashes of the declared paths, the project's paths: about
// 1 kB a project), so the limit grows by as much: a fixed limit that the
// live heap approaches makes the collector run ever more often, and a
// larger share only lets garbage raise the peak (4 KiB a project: 129
// MB at 10,000 projects instead of 98, in the same time).
const (
	GCPercent             = 400
	MemoryLimitBase       = 90 << 20
	MemoryLimitPerProject = 1 << 10
)

// MemoryLimit is the soft memory limit TuneGC sets for a batch of n
// projects.
func MemoryLimit(n int) int64 {
	return MemoryLimitBase + int64(n)*MemoryLimitPerProject
}

// TuneGC sets the collector's target to GCPercent and the soft memory
// limit to MemoryLimit(n), for a batch of n projects.
func TuneGC(n int) {
	debug.SetGCPercent(GCPercent)
	debug.SetMemoryLimit(MemoryLimit(n))
}

// Tunable reports whether environ (NAME=VALUE entries) sets neither GOGC
// nor GOMEMLIMIT: a command may then tune the collector to its work
// (TuneGC).
func Tunable(environ []string) bool {
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); k == "GOGC" || k == "GOMEMLIMIT" {
			return false
		}
	}
	return true
}

// GuardGCPercent is the collector's target once GuardGC finds the live
// heap at half the soft limit or more: Go's default, so that a large
// input runs as it would untuned. (At 50, one project of 8,000 services
// took 1.11x the CPU of GOGC=100, and eight compose files of 1 MB
// 1.13x; at 100, 0.95x and 1.02x, the noise of the machine.)
const GuardGCPercent = 100

// GuardGC watches the live heap after each collection until the returned
// function is called, which puts back the collector's settings. A soft
// limit the live heap nears makes the collector run without pause, at up
// to half the CPU: one project of 8,000 services keeps up to 360 MB live,
// and under the 90 MB of TuneGC(0) its conversion took 38 s of CPU
// instead of 12. So once the live heap reaches half the limit, GuardGC
// lifts the limit and has the collector pace itself by GuardGCPercent
// instead (a heap of twice the live one, as untuned). A limit set by
// another since (TuneGC, check) is watched in turn.
func GuardGC() (stop func()) {
	g := &gcGuard{limit: debug.SetMemoryLimit(-1)}
	g.arm()
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.stopped = true
		if g.lifted && debug.SetMemoryLimit(-1) == math.MaxInt64 {
			debug.SetMemoryLimit(g.limit)
			debug.SetGCPercent(g.percent)
		}
	}
}

// gcGuard is GuardGC's state: the limit it watches, and once lifted
// (lifted), the GC percent it replaced.
type gcGuard struct {
	mu      sync.Mutex
	limit   int64
	percent int
	lifted  bool
	stopped bool
}

// arm has the runtime call g.collected after the next collection: a
// finalizer runs once the object it is set on is found unreachable.
func (g *gcGuard) arm() {
	sentinel := new([32]byte)
	runtime.SetFinalizer(sentinel, func(*[32]byte) { g.collected() })
}

// collected lifts the limit when the live heap the last collection found
// is half of it or more, and arms the guard again.
func (g *gcGuard) collected() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	if cur := debug.SetMemoryLimit(-1); g.lifted && cur != math.MaxInt64 || !g.lifted && cur != g.limit {
		g.limit, g.lifted = cur, false // set by another since
	}
	if !g.lifted && g.limit != math.MaxInt64 && liveHeap() >= g.limit/2 {
		g.percent = debug.SetGCPercent(GuardGCPercent)
		debug.SetMemoryLimit(math.MaxInt64)
		g.lifted = true
	}
	g.arm()
}

// liveHeap returns the heap the last collection found live, or 0.
func liveHeap() int64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(sample[0].Value.Uint64(), math.MaxInt64))
}

// LargeInput is the size of a project's compose files, all together, at
// which a single run gives the collector Go's defaults back (Untune).
// TuneGC(0) under GuardGC makes small projects convert in less CPU (the
// corpus: 0.69x the CPU of GOGC=100, BenchmarkGCTuning), but not large
// ones: one project of 8,000 services (about 360 kB) took 1.04-1.11x,
// the soft limit's scavenging included, and eight files of 1 MB
// 0.94-0.97x, within the machine's noise. All corpus projects are far
// below it (sentry-self-hosted's compose file, the largest, is 35 kB).
const LargeInput = 256 << 10

// Untune gives the collector Go's defaults back (GOGC=100, no soft
// limit) when size, the bytes of a project's compose files, is
// LargeInput or more; GuardGC, seeing a limit it did not set, leaves it
// be. A single run calls it once its compose files are read
// (convert.Options.InputSize), never a batch, whose settings are for all
// its projects.
func Untune(size int64) {
	if size >= LargeInput {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
