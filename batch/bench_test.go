package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/sirupsen/logrus"
)

// runBench runs one batch of root into a new folder under out.
func runBench(b *testing.B, root, out string, jobs int) *Report {
	return runBenchGC(b, root, out, jobs, false)
}

// runBenchGC is runBench, tuning the collector as the command does when
// tune is set (Config.TuneGC).
func runBenchGC(b *testing.B, root, out string, jobs int, tune bool) *Report {
	b.Helper()
	dir, err := os.MkdirTemp(out, "run")
	if err != nil {
		b.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Root: root, Out: dir, Jobs: jobs, Convert: convert.Options{Environ: []string{}}, TuneGC: tune})
	if err != nil {
		b.Fatal(err)
	}
	return rep
}

// BenchmarkBatchCorpus converts the whole corpus C2M_CORPUS points at, as
// convert --batch does, with 1 and 2 workers. Beside the time, it reports
// cpu-ms/op: the CPU time (user and system) the process used per batch,
// which tells what a second worker costs apart from what it gains (on a
// shared machine, the wall time also moves with other processes' load).
func BenchmarkBatchCorpus(b *testing.B) {
	root := os.Getenv("C2M_CORPUS")
	if root == "" {
		b.Skip("C2M_CORPUS is not set")
	}
	logrus.SetOutput(io.Discard) // as the command does
	// The command tunes the collector for a batch (cmd/compose2manifest
	// batchGCPercent, batchMemoryLimit); measure what it runs.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(90 << 20))
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			out := b.TempDir()
			var n int
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				n = len(runBench(b, root, out, jobs).Entries)
			}
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			}
			b.ReportMetric(float64(n), "projects")
		})
	}
}

// BenchmarkBatchGenerated converts generated trees of 500 and 2,000
// projects (and 10,000 with C2M_BENCH_10K set: about two minutes) of 10
// services with 4 volumes each (internal/gen), with the default number of
// workers. It reports the time per project, to show
// that time grows linearly with the number of projects, and peak-heap-MB:
// the largest Go heap (runtime/metrics /memory/classes/heap/objects:bytes,
// sampled every 5 ms) seen during the runs. scripts/bench.sh measures the
// process's peak RSS under /usr/bin/time as well. With C2M_BENCH_GC=batch
// the collector is tuned as the command tunes it (Config.TuneGC);
// otherwise it runs with Go's defaults.
func BenchmarkBatchGenerated(b *testing.B) {
	tune := os.Getenv("C2M_BENCH_GC") == "batch"
	if tune {
		defer debug.SetGCPercent(debug.SetGCPercent(100))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	}
	sizes := []int{500, 2000}
	if os.Getenv("C2M_BENCH_10K") != "" {
		sizes = append(sizes, 10000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("projects=%d", n), func(b *testing.B) {
			root := filepath.Join(b.TempDir(), "tree")
			if err := gen.Tree(root, gen.Shape{Projects: n, Services: 10, Volumes: 4}); err != nil {
				b.Fatal(err)
			}
			out := b.TempDir()
			stop := samplePeakHeap()
			b.ResetTimer()
			for b.Loop() {
				// runBenchGC converts into a folder of its own each time:
				// into the same one, a batch keeps every manifest.
				rep := runBenchGC(b, root, out, 0, tune)
				if s := rep.Summary(); s.Converted != n || s.Kept != 0 {
					b.Fatalf("%d of %d projects converted: %+v", s.Converted, n, s)
				}
			}
			b.StopTimer()
			peak := stop()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/project")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkBatchUnchanged is convert --batch run again over a generated
// tree of 2,000 projects nothing in which changed since the last batch:
// every manifest is kept (convert.Current), none converted.
func BenchmarkBatchUnchanged(b *testing.B) {
	const n = 2000
	root := filepath.Join(b.TempDir(), "tree")
	if err := gen.Tree(root, gen.Shape{Projects: n, Services: 10, Volumes: 4}); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Root: root, Out: b.TempDir(), Convert: convert.Options{Environ: []string{}}}
	if _, err := Run(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
	stop := samplePeakHeap()
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if s := rep.Summary(); s.Kept != n {
			b.Fatalf("kept %d of %d manifests: %+v", s.Kept, n, s)
		}
	}
	b.StopTimer()
	peak := stop()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/project")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// samplePeakHeap samples the bytes of heap objects every 5 ms until the
// function it returns is called, which returns the largest sample.
func samplePeakHeap() func() uint64 {
	const name = "/memory/classes/heap/objects:bytes"
	done := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		s := []metrics.Sample{{Name: name}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// BenchmarkCrossCheck runs the rules that span modules (crossCheck) over
// 10,000 modules, each what convert --batch keeps of one generated
// project (gen.Project, 10 services of 4 volumes: 43 declared paths, 20
// relative binds): the modules meet nowhere. It reports the bytes
// crossCheck allocates (B/op) and the peak Go heap above what the
// entries hold (peak-heap-MB, sampled every 5 ms): what the end of a
// batch adds to its memory.
func BenchmarkCrossCheck(b *testing.B) { benchCrossCheck(b, false) }

// BenchmarkCrossCheckAbsolute is BenchmarkCrossCheck with each module's
// relative binds copied from absolute host folders below one folder
// (bind /mnt/pool/p00042/...): origins the modules could share, every
// one with /mnt/pool above it, which the prefilter keys by its path
// prefixes (declSet.above) so that no module is a candidate of another.
func BenchmarkCrossCheckAbsolute(b *testing.B) { benchCrossCheck(b, true) }

// benchCrossCheck is BenchmarkCrossCheck, its relative binds' origins
// made absolute when absolute is set.
func benchCrossCheck(b *testing.B, absolute bool) {
	const n = 10000
	dir := filepath.Join(b.TempDir(), "p00000")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	compose, decl := gen.Project("p00000", 10, 4)
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), decl, 0o644); err != nil {
		b.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		b.Fatalf("convert: %v %v", err, res.Status)
	}
	recs := declaredOf(res.Module)
	var peak uint64
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		sp := newSpool()
		entries := make([]Entry, n)
		for i := range entries {
			module := fmt.Sprintf("p%05d", i)
			rs := slices.Clone(recs)
			for j := range rs {
				rs[j].path = strings.ReplaceAll(rs[j].path, "p00000", module)
				rs[j].legacy = strings.ReplaceAll(rs[j].legacy, "p00000", module)
				if rest, ok := strings.CutPrefix(rs[j].legacy, "bind ./"); ok && absolute {
					rs[j].legacy = "bind /mnt/pool/" + module + "/" + rest
				}
			}
			entries[i] = Entry{Project: "g/" + module, Module: module, Status: convert.Converted, inSet: true, declared: sp.store(rs)}
		}
		runtime.GC()
		base := heapObjects()
		stop := samplePeakHeap()
		b.StartTimer()
		crossCheck(entries, sp, func(s string) string { return s })
		b.StopTimer()
		if p := stop(); p > base {
			peak = max(peak, p-base)
		}
		sp.close()
		for i := range entries {
			if len(entries[i].Diagnostics) > 0 {
				b.Fatalf("%s: %+v", entries[i].Project, entries[i].Diagnostics)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(len(recs)), "paths/module")
}

// heapObjects returns the bytes of heap objects now.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
