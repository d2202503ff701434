package project_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
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
// falls on both alike. It reports own/load: (convert - load) / load of
// the summed times, and each time per run.
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
			var loadTime, convertTime time.Duration
			runLoad := func() {
				start := time.Now()
				if err := load(ctx); err != nil {
					b.Fatal(err)
				}
				loadTime += time.Since(start)
			}
			runConvert := func() {
				start := time.Now()
				if _, err := convert.Convert(ctx, opts); err != nil {
					b.Fatal(err)
				}
				convertTime += time.Since(start)
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
			b.ReportMetric(float64(convertTime-loadTime)/float64(loadTime), "own/load")
			b.ReportMetric(float64(loadTime.Microseconds())/1e3/float64(i), "load-ms")
			b.ReportMetric(float64(convertTime.Microseconds())/1e3/float64(i), "convert-ms")
		})
	}
}
