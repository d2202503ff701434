//go:build unix

package project_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/sirupsen/logrus"
)

// BenchmarkOwnCost measures, on the three largest corpus projects, what
// a whole conversion costs beyond compose-go's load of the same project
// with the same options (project.ComposeLoader: the inputs, bytes and
// casts prepared once, then only compose-go's work). Each iteration runs
// the load alone and the conversion (with filled-in declarations, so
// that it goes through to a manifest, and the image table shared, as a
// batch shares it) in alternating order, so that the machine's load
// falls on both alike. It reports own/load-cpu: (convert - load) / load
// of the summed CPU times (the process's user and system time, getrusage:
// steadier than wall time on a shared machine, and the collector's work
// on either side included), own/load-wall likewise of wall times, and
// each CPU time per run.
func BenchmarkOwnCost(b *testing.B) {
	root := os.Getenv("C2M_CORPUS")
	if root == "" {
		b.Skip("C2M_CORPUS is not set")
	}
	logrus.SetOutput(io.Discard)
	table, err := images.Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"sentry-self-hosted", "mailcow", "zammad"} {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join(root, name)
			ctx := context.Background()
			opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, Images: table}
			res, err := convert.Convert(ctx, opts)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Skeleton) > 0 {
				filled, err := skeletontest.Fill(res.Skeleton)
				if err != nil {
					b.Fatal(err)
				}
				opts.DeclarationsFile = filepath.Join(b.TempDir(), "decl.yaml")
				if err := os.WriteFile(opts.DeclarationsFile, filled, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			if res, err := convert.Convert(ctx, opts); err != nil || res.Status != convert.Converted {
				b.Fatalf("convert: %v, %v", err, res.Status)
			}
			load, err := project.ComposeLoader(project.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
			if err != nil {
				b.Fatal(err)
			}
			var loadTime, convertTime, loadCPU, convertCPU time.Duration
			runLoad := func() {
				start, cpu := time.Now(), cpuTime(b)
				if err := load(ctx); err != nil {
					b.Fatal(err)
				}
				loadTime += time.Since(start)
				loadCPU += cpuTime(b) - cpu
			}
			runConvert := func() {
				start, cpu := time.Now(), cpuTime(b)
				if _, err := convert.Convert(ctx, opts); err != nil {
					b.Fatal(err)
				}
				convertTime += time.Since(start)
				convertCPU += cpuTime(b) - cpu
			}
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					runLoad()
					runConvert()
				} else {
					runConvert()
					runLoad()
				}
				i++
			}
			b.ReportMetric(float64(convertCPU-loadCPU)/float64(loadCPU), "own/load-cpu")
			b.ReportMetric(float64(convertTime-loadTime)/float64(loadTime), "own/load-wall")
			b.ReportMetric(float64(loadCPU.Microseconds())/1e3/float64(i), "load-cpu-ms")
			b.ReportMetric(float64(convertCPU.Microseconds())/1e3/float64(i), "convert-cpu-ms")
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
