package check_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
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

// largeManifest writes, into a temporary folder, the manifest of
// gen.Flat's project of n services with a bind each: n directories and n
// containers. No project that large converts within the input limits
// (project.MaxInputSize, the YAML node limit), so the conversion of a
// project of 2 is decoded and its resources repeated; it is encoded as
// convert encodes, header, fingerprint and body digest too. It returns
// the manifest's path and its resources.
func largeManifest(b *testing.B, n int) (string, int) {
	b.Helper()
	dir := b.TempDir()
	compose, decl := gen.Flat("flat", 2, 2)
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), decl, 0o644); err != nil {
		b.Fatal(err)
	}
	res, err := convert.Convert(context.Background(), convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		b.Fatalf("convert: %v, %v", err, res.Status)
	}
	m := res.Module
	var dirs, ctrs []manifest.Resource
	for _, r := range m.Resources {
		switch {
		case r.Kind == manifest.KindDirectory && strings.HasSuffix(r.Path, "/d/0"):
			for i := range n {
				d := r
				d.Path, d.Comment = strings.TrimSuffix(r.Path, "0")+strconv.Itoa(i), ""
				dirs = append(dirs, d)
			}
		case r.Kind == manifest.KindContainer && r.Container.Name == "s0":
			for i := range n {
				c, ct := r, *r.Container
				ct.Name, ct.Volumes = "s"+strconv.Itoa(i), slices.Clone(ct.Volumes)
				ct.Volumes[0].Source = strings.TrimSuffix(ct.Volumes[0].Source, "0") + strconv.Itoa(i)
				c.Container = &ct
				ctrs = append(ctrs, c)
			}
		case r.Kind == manifest.KindDirectory && !strings.Contains(r.Path, "/d/"):
			dirs = append(dirs, r) // the declared parents
		}
	}
	m.Resources = append(dirs, ctrs...)
	data, err := manifest.Encode(m)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "out", m.Module+".yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, len(m.Resources)
}

// BenchmarkCheckLargeManifest is a plain check of one manifest of
// 150,000 resources (75,000 directories, 75,000 containers), under the
// collector's settings of the command (batch.TuneGC(0), batch.GuardGC):
// it took 14.6 s of CPU, the collector running without pause under the
// soft limit. (docker compose config refuses the project it stands for,
// c2mgen -flat -services 75000 -binds 75000, past its 100,000 YAML
// nodes; on 14,000 services it takes 8.7 s of CPU.)
func BenchmarkCheckLargeManifest(b *testing.B) {
	path, n := largeManifest(b, 75000)
	cfg := check.Config{Rules: rules.All()}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	batch.TuneGC(0)
	defer batch.GuardGC()()
	for b.Loop() {
		res := check.Manifests(cfg, []string{path})
		if res.Unreadable() {
			b.Fatalf("unreadable: %v %+v", res.Errors, res.Report.Modules[0].Diagnostics)
		}
		if e, w := res.Count(); e+w > 0 {
			b.Fatalf("%d errors, %d warnings: %+v", e, w, res.Report.Modules[0].Diagnostics[0])
		}
	}
	b.ReportMetric(float64(n), "resources")
}

// BenchmarkCheckManifests is plain check of the 2,000 manifests of a
// generated tree (as check DIR runs it), without a cache and with a warm
// one (Config.Cache, filled by a first run before the timer starts),
// reporting the peak Go heap.
func BenchmarkCheckManifests(b *testing.B) {
	_, out := benchTree(b, 2000)
	for _, c := range []struct {
		name  string
		cache string
	}{{"cache=none", ""}, {"cache=warm", b.TempDir()}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := check.Config{Rules: rules.All(), Cache: c.cache}
			if c.cache != "" {
				check.Manifests(cfg, []string{out})
			}
			stop := samplePeakHeap()
			b.ResetTimer()
			var res *check.Result
			for b.Loop() {
				res = check.Manifests(cfg, []string{out})
			}
			b.StopTimer()
			peak := stop()
			if e, w := res.Count(); e+w > 0 || res.Unreadable() || len(res.Report.Modules) != 2000 {
				b.Fatalf("%d errors, %d warnings, %d modules", e, w, len(res.Report.Modules))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
