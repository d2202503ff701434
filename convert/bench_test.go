package convert_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/internal/skeletontest"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/sirupsen/logrus"
)

// benchProject is one corpus project prepared for the benchmarks: its
// folder, its compose files as docker compose finds them, and a filled-in
// declarations file so that conversion goes all the way to a manifest.
type benchProject struct {
	name, dir string
	files     []string
	decl      string
}

// corpusBench returns the projects of the corpus C2M_CORPUS points at,
// found as convert --batch finds them, that have a compose file. It skips
// the benchmark when C2M_CORPUS is not set. Each sub-benchmark prepares
// its own project (prepare), so that a run of one project (as
// scripts/bench.sh does, -bench 'BenchmarkConvert$/^NAME$') converts no
// other.
func corpusBench(b *testing.B) []benchProject {
	b.Helper()
	root := os.Getenv("C2M_CORPUS")
	if root == "" {
		b.Skip("C2M_CORPUS is not set")
	}
	// compose-go logs unset variables through logrus; convert reports
	// them itself, as the command does.
	logrus.SetOutput(io.Discard)
	projects, err := batch.Discover(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	var out []benchProject
	for _, p := range projects {
		found, err := cli.NewProjectOptions(nil, cli.WithWorkingDirectory(p.Dir), cli.WithDefaultConfigPath)
		if err != nil || len(found.ConfigPaths) == 0 {
			continue
		}
		out = append(out, benchProject{name: strings.ReplaceAll(p.Rel, "/", "_"), dir: p.Dir, files: found.ConfigPaths})
	}
	return out
}

// prepare returns p with a filled-in declarations file (when its
// conversion is refused for want of declarations), and skips the
// benchmark b when p does not load: nothing to compare.
func (p benchProject) prepare(b *testing.B) benchProject {
	b.Helper()
	res, err := convert.Convert(context.Background(), p.options(""))
	if err != nil {
		b.Skipf("%s does not load: %v", p.name, err)
	}
	if len(res.Skeleton) > 0 {
		p.decl = filepath.Join(b.TempDir(), "compose2manifest.yaml")
		if err := os.WriteFile(p.decl, fillSkeleton(b, res.Skeleton), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return p
}

func (p benchProject) options(decl string) convert.Options {
	return convert.Options{ProjectDirectory: p.dir, WorkingDirectory: p.dir, Environ: []string{}, DeclarationsFile: decl}
}

// fillSkeleton fills a refusal's skeleton with placeholders.
func fillSkeleton(b *testing.B, skeleton []byte) []byte {
	b.Helper()
	out, err := skeletontest.Fill([]byte(skeleton))
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkLoad times compose-go's LoadProject alone on each corpus
// project, with the options convert passes it.
func BenchmarkLoad(b *testing.B) {
	for _, p := range corpusBench(b) {
		b.Run(p.name, func(b *testing.B) {
			p.prepare(b) // only the projects that load, as BenchmarkConvert
			ctx := context.Background()
			for b.Loop() {
				po, err := cli.NewProjectOptions(p.files,
					cli.WithEnv([]string{}),
					cli.WithWorkingDirectory(p.dir),
					cli.WithEnvFiles(),
					cli.WithDotEnv,
					cli.WithName(""),
					cli.WithProfiles(nil),
					cli.WithResolvedPaths(true),
				)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := po.LoadProject(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkConvert times the whole conversion of each corpus project, as
// convert --batch runs it: finding the compose files, loading, converting
// with the author's (filled-in) declarations and the built-in image table,
// encoding, and writing the manifest to a temporary folder. Like a batch,
// it parses the image table once and shares it (Options.Images); what
// parsing it costs, once per process, BenchmarkImagesLoad says.
func BenchmarkConvert(b *testing.B) {
	table, err := images.Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range corpusBench(b) {
		b.Run(p.name, func(b *testing.B) {
			p := p.prepare(b)
			ctx := context.Background()
			out := b.TempDir()
			opts := p.options(p.decl)
			opts.Images = table
			for b.Loop() {
				res, err := convert.Convert(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				if res.Status == convert.Converted {
					if err := os.WriteFile(filepath.Join(out, res.Module.Module+".yaml"), res.Manifest, 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkImagesLoad times parsing the built-in image table, which a
// single conversion does once and a batch once for all its projects.
func BenchmarkImagesLoad(b *testing.B) {
	for b.Loop() {
		if _, err := images.Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConvertManyServices times a single project of N services with
// a bind each: what our own reading adds to compose-go's load must grow
// linearly with N (a service lookup and the bind-holder search were
// quadratic: 8,000 services took 24 s, docker compose config 2.9 s).
func BenchmarkConvertManyServices(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run("services="+itoa(n), func(b *testing.B) {
			dir := b.TempDir()
			var sb strings.Builder
			sb.WriteString("services:\n")
			for i := range n {
				sb.WriteString("  s" + itoa(i) + ":\n    image: nginx:1\n    volumes:\n      - ./d" + itoa(i) + ":/data\n")
			}
			if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(sb.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			logrus.SetOutput(io.Discard)
			opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, HostProjectDirectory: "/opt/b"}
			for b.Loop() {
				if _, err := convert.Convert(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/service")
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkConvertDeclaredServices times a single project of N services
// with a bind mount each and a declaration for every bind (internal/gen's
// project, which c2mgen -projects 1 -services N -volumes 1 writes): matching
// sources to declarations must stay near-linear in N (it interpolated every
// declaration key for every source: 8,000 services took 56 s and 307 MB,
// docker compose config on the same project 6.3 s).
func BenchmarkConvertDeclaredServices(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		b.Run("services="+itoa(n), func(b *testing.B) {
			dir := b.TempDir()
			compose, decl := gen.Project("big", n, 1)
			if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), decl, 0o644); err != nil {
				b.Fatal(err)
			}
			logrus.SetOutput(io.Discard)
			opts := convert.Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}}
			for b.Loop() {
				res, err := convert.Convert(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if res.Status != convert.Converted {
					b.Fatalf("status %v, want converted", res.Status)
				}
			}
			perOp := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(perOp.Microseconds())/float64(n), "µs/service")
			if dc := os.Getenv("C2M_DOCKER_COMPOSE"); dc != "" {
				// The same project through docker compose config, once:
				// the target is within 2x of its time.
				cmd := exec.Command(dc, "config", "--format", "json")
				cmd.Dir, cmd.Stdout = dir, io.Discard
				start := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("docker compose config: %v", err)
				}
				b.ReportMetric(float64(perOp)/float64(time.Since(start)), "x-docker-compose")
			}
		})
	}
}
