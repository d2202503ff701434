package check_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
)

// benchTree writes a generated tree of n projects (10 services of 4
// volumes each) and converts it into out, as convert --batch does.
func benchTree(b *testing.B, n int) (root, out string) {
	b.Helper()
	dir := b.TempDir()
	root, out = filepath.Join(dir, "tree"), filepath.Join(dir, "out")
	if err := gen.Tree(root, gen.Shape{Projects: n, Services: 10, Volumes: 4}); err != nil {
		b.Fatal(err)
	}
	rep, err := batch.Run(context.Background(), batch.Config{Root: root, Out: out, Convert: convert.Options{Environ: []string{}}})
	if err != nil || rep.Summary().Converted != n {
		b.Fatalf("batch: %v, %+v", err, rep.Summary())
	}
	return root, out
}

// benchAgainst runs check --against root out once per iteration, with the
// soft memory limit the command sets, and reports the projects converted
// again and the peak Go heap.
func benchAgainst(b *testing.B, root, out string, wantConverted int) {
	benchAgainstCache(b, root, out, wantConverted, "")
}

// benchAgainstCache is benchAgainst with check.Config.Cache, filled by a
// first run before the timer starts.
func benchAgainstCache(b *testing.B, root, out string, wantConverted int, cache string) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(90 << 20))
	cfg := check.Config{Convert: convert.Options{Environ: []string{}}, Cache: cache}
	if cache != "" {
		if _, err := check.Against(context.Background(), cfg, root, []string{out}); err != nil {
			b.Fatal(err)
		}
	}
	stop := samplePeakHeap()
	b.ResetTimer()
	var res *check.Result
	for b.Loop() {
		var err error
		res, err = check.Against(context.Background(), cfg, root, []string{out})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	peak := stop()
	if res.Converted != wantConverted {
		b.Fatalf("converted %d projects again, want %d", res.Converted, wantConverted)
	}
	b.ReportMetric(float64(res.Converted), "converted")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// BenchmarkAgainstUnchanged is the CI re-check of a generated tree of
// 2,000 projects nothing in which changed since convert --batch: no
// project is converted.
func BenchmarkAgainstUnchanged(b *testing.B) {
	root, out := benchTree(b, 2000)
	benchAgainst(b, root, out, 0)
}

// BenchmarkAgainstUnchangedCached is BenchmarkAgainstUnchanged with a
// warm cache (check.Config.Cache): no manifest is decoded again.
func BenchmarkAgainstUnchangedCached(b *testing.B) {
	root, out := benchTree(b, 2000)
	benchAgainstCache(b, root, out, 0, b.TempDir())
}

// BenchmarkAgainstOneChangedCached is BenchmarkAgainstOneChanged with a
// warm cache.
func BenchmarkAgainstOneChangedCached(b *testing.B) {
	root, out := benchTree(b, 2000)
	f := filepath.Join(root, "g007", "p00742", "compose.yaml")
	data, err := os.ReadFile(f)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(f, append(data, "# changed\n"...), 0o644); err != nil {
		b.Fatal(err)
	}
	benchAgainstCache(b, root, out, 1, b.TempDir())
}

// BenchmarkAgainstOneChanged is the same re-check after one project's
// compose file changed: that one project is converted again (and found
// stale).
func BenchmarkAgainstOneChanged(b *testing.B) {
	root, out := benchTree(b, 2000)
	f := filepath.Join(root, "g007", "p00742", "compose.yaml")
	data, err := os.ReadFile(f)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(f, append(data, "# changed\n"...), 0o644); err != nil {
		b.Fatal(err)
	}
	benchAgainst(b, root, out, 1)
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
