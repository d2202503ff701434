package batch

import (
	"runtime/debug"
	"strings"
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
