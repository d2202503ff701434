//go:build unix

package convert_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/sirupsen/logrus"
)

// BenchmarkGCTuning measures what the command's collector settings
// (batch.TuneGC(0) under batch.GuardGC, and batch.Untune once the compose
// files are read, as cmd/compose2manifest sets them unless GOGC or
// GOMEMLIMIT is set) do to a single convert against Go's
// defaults (GOGC=100, no soft limit), on three inputs: every corpus
// project in turn, one project of 8,000 services with a bind each
// (gen.Flat), and 8 MB of compose files split into eight -f files. Each
// iteration runs the input once each way, in alternating order, and the
// benchmark reports the ratios of the summed CPU time (process user +
// system, the collector's workers included: getrusage) and wall time,
// tuned over default, with the CPU milliseconds of each. A ratio above 1
// is a run the tuning makes slower.
func BenchmarkGCTuning(b *testing.B) {
	logrus.SetOutput(io.Discard)
	inputs := []struct {
		name  string
		setup func(b *testing.B) []convert.Options
	}{
		{"corpus", func(b *testing.B) []convert.Options {
			var out []convert.Options
			for _, p := range corpusBench(b) {
				out = append(out, p.options(p.decl))
			}
			return out
		}},
		{"services=8000", func(b *testing.B) []convert.Options {
			dir := b.TempDir()
			compose, decl := gen.Flat("big", 8000, 8000)
			writeBench(b, filepath.Join(dir, "compose.yaml"), compose)
			writeBench(b, filepath.Join(dir, "compose2manifest.yaml"), decl)
			return []convert.Options{{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}}}
		}},
		{"split=8x1MB", func(b *testing.B) []convert.Options {
			dir := b.TempDir()
			return []convert.Options{{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, ConfigFiles: splitInput(b, dir, 8, 1<<20)}}
		}},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			runs := in.setup(b)
			ctx := context.Background()
			once := func(tuned bool) (cpu, wall time.Duration) {
				debug.SetGCPercent(100)
				debug.SetMemoryLimit(math.MaxInt64)
				runtime.GC()
				var stop func()
				if tuned {
					batch.TuneGC(0)
					stop = batch.GuardGC()
				}
				start, startCPU := time.Now(), cpuTime(b)
				for _, opts := range runs {
					if tuned {
						opts.InputSize = batch.Untune // as the command sets it
					}
					if _, err := convert.Convert(ctx, opts); err != nil {
						b.Fatal(err)
					}
				}
				cpu, wall = cpuTime(b)-startCPU, time.Since(start)
				if stop != nil {
					stop()
				}
				return cpu, wall
			}
			var cpu, wall [2]time.Duration // default, tuned
			i := 0
			for b.Loop() {
				for _, tuned := range []bool{i%2 == 1, i%2 == 0} {
					c, w := once(tuned)
					k := 0
					if tuned {
						k = 1
					}
					cpu[k] += c
					wall[k] += w
				}
				i++
			}
			b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "tuned/default-cpu")
			b.ReportMetric(float64(wall[1])/float64(wall[0]), "tuned/default-wall")
			b.ReportMetric(float64(cpu[0].Milliseconds())/float64(i), "default-cpu-ms")
			b.ReportMetric(float64(cpu[1].Milliseconds())/float64(i), "tuned-cpu-ms")
		})
	}
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeBench writes data to the file at path.
func writeBench(b *testing.B, path string, data []byte) {
	b.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

// splitInput writes n compose files of about size bytes each into dir,
// each of services with a long environment and labels and no volumes (a
// large input that converts without declarations), and returns their
// names in order.
func splitInput(b *testing.B, dir string, n, size int) []string {
	b.Helper()
	var names []string
	for f := range n {
		var s strings.Builder
		s.WriteString("services:\n")
		for svc := 0; s.Len() < size; svc++ {
			fmt.Fprintf(&s, "  s%d-%d:\n    image: nginx:1.27\n    environment:\n", f, svc)
			for v := range 40 {
				fmt.Fprintf(&s, "      VARIABLE_%02d: \"value %d of service %d in file %d, long enough to weigh\"\n", v, v, svc, f)
			}
			s.WriteString("    labels:\n")
			for l := range 10 {
				fmt.Fprintf(&s, "      org.example.label-%02d: \"label %d\"\n", l, l)
			}
		}
		name := fmt.Sprintf("compose-%d.yaml", f)
		writeBench(b, filepath.Join(dir, name), []byte(s.String()))
		names = append(names, name)
	}
	return names
}
