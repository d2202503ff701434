package project_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/sirupsen/logrus"
)

// BenchmarkComposeLoad times compose-go's load of each corpus project
// (C2M_CORPUS, found as convert --batch finds them, named as
// convert's BenchmarkConvert names them) exactly as a conversion has
// compose-go load it: project.ComposeLoader prepares, once, what Load
// hands compose-go (the -f files' bytes, the pruned interpolation casts,
// the environment with the env files read), and each iteration is
// compose-go's work alone. It is the A of scripts/bench.sh's convert
// table, whose B is BenchmarkConvert: B / A - 1 is then our own cost.
// (convert's BenchmarkLoad is compose-go's own ProjectOptions.LoadProject,
// which reads the files by path and applies every cast: more work than
// a conversion asks of compose-go on a large project.)
func BenchmarkComposeLoad(b *testing.B) {
	root := os.Getenv("C2M_CORPUS")
	if root == "" {
		b.Skip("C2M_CORPUS is not set")
	}
	logrus.SetOutput(io.Discard)
	projects, err := batch.Discover(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range projects {
		found, err := cli.NewProjectOptions(nil, cli.WithWorkingDirectory(p.Dir), cli.WithDefaultConfigPath)
		if err != nil || len(found.ConfigPaths) == 0 {
			continue
		}
		b.Run(strings.ReplaceAll(p.Rel, "/", "_"), func(b *testing.B) {
			ctx := context.Background()
			load, err := project.ComposeLoader(project.Options{ProjectDirectory: p.Dir, WorkingDirectory: p.Dir, Environ: []string{}})
			if err != nil {
				b.Skipf("%s: %v", p.Rel, err)
			}
			if err := load(ctx); err != nil {
				b.Skipf("%s does not load: %v", p.Rel, err)
			}
			for b.Loop() {
				if err := load(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
