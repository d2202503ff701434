package ask

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/rules"
)

// BenchmarkSessionCheck measures a Session answering every question
// about N named volumes with each answer checked by converting in memory
// (Session.Check): per source, the baseline, owner, mode and intent, and
// the check after its last answer, five conversions for five questions.
// checks/op counts the conversions; ns/check is ns/op over them.
func BenchmarkSessionCheck(b *testing.B) {
	table, err := images.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 10, 30} {
		b.Run(fmt.Sprintf("sources=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var compose strings.Builder
			compose.WriteString("name: bench\nservices:\n  app:\n    image: example/app:1\n    volumes:\n")
			for i := range n {
				fmt.Fprintf(&compose, "      - v%d:/data/%d\n", i, i)
			}
			compose.WriteString("volumes:\n")
			for i := range n {
				fmt.Fprintf(&compose, "  v%d: {}\n", i)
			}
			decl := []byte("version: 1\nvolume_root: /srv\n")
			if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			opts := convert.Options{WorkingDirectory: dir, Environ: []string{}, Images: table, Declarations: &convert.Declarations{Data: decl}}
			res, err := convert.Convert(ctx, opts)
			if err != nil || len(res.Missing) != n {
				b.Fatalf("convert: %v, %d missing", err, len(res.Missing))
			}
			plan := NewPlan("bench", res.Missing, nil, table)
			input := strings.Repeat("0:0\n0750\nstate\n\n\n", n) // owner, mode, intent, path kept, no note
			checks := 0
			check := func(data []byte) ([]rules.Diagnostic, error) {
				checks++
				o := opts
				o.Declarations = &convert.Declarations{Data: data}
				r, err := convert.Convert(ctx, o)
				if err != nil {
					return nil, err
				}
				return r.Diagnostics, nil
			}
			for b.Loop() {
				doc, err := declare.LoadDocument(declare.DefaultFile, decl)
				if err != nil {
					b.Fatal(err)
				}
				s := &Session{In: strings.NewReader(input), Out: io.Discard, Doc: doc, Check: check}
				a, err := s.Run(plan)
				if err != nil || len(a.Entries) != n {
					b.Fatalf("Run: %v", err)
				}
			}
			b.ReportMetric(float64(checks)/float64(b.N), "checks/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(checks), "ns/check")
		})
	}
}
