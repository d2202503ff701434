package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestCorpusLocationIndependent converts the whole shared corpus from two
// checkouts at different places on this machine (the same folder names,
// other parents) and requires byte-identical manifests, reports and
// skeletons: nothing of the converting machine's paths may reach them.
// Each project is converted as is and again with its refusal's skeleton
// filled in, so that both refusals and manifests are compared.
func TestCorpusLocationIndependent(t *testing.T) {
	root := os.Getenv(corpusEnv)
	if root == "" {
		t.Skipf("%s is not set; .ci/run sets it to the shared corpus", corpusEnv)
	}
	a := filepath.Join(t.TempDir(), "checkout", "corpus")
	b := filepath.Join(t.TempDir(), "elsewhere", "deeper", "corpus")
	for _, dst := range []string{a, b} {
		copyTree(t, root, dst)
	}
	files := corpusProjects(t, a)
	if len(files) == 0 {
		t.Fatal("no corpus projects")
	}
	for _, fa := range files {
		rel, _ := filepath.Rel(a, fa)
		fb := filepath.Join(b, rel)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			runs := 0
			run := func(base, file string, extra ...string) (int, string, string, map[string][]byte) {
				// -o relative to the project, so the report names it alike.
				runs++
				rel := fmt.Sprintf("c2m-test-out-%d", (runs+1)/2)
				out := filepath.Join(filepath.Dir(file), rel)
				args := append([]string{"convert", "--strict", "--profile=*", "--volume-root", "/srv", "--host-project-directory", "/opt/p",
					"-f", filepath.Base(file), "-o", rel, "--format", "json"}, extra...)
				code, stdout, stderr := runCLI(t, filepath.Dir(file), args...)
				written := map[string][]byte{}
				entries, _ := os.ReadDir(out)
				for _, e := range entries {
					data, err := os.ReadFile(filepath.Join(out, e.Name()))
					if err != nil {
						t.Fatal(err)
					}
					written[e.Name()] = data
				}
				return code, stdout, stderr, written
			}
			compare := func(what string, extraA, extraB []string) string {
				ca, sa, ea, wa := run(a, fa, extraA...)
				cb, sb, eb, wb := run(b, fb, extraB...)
				if ca != cb || sa != sb || ea != eb {
					t.Errorf("%s: the two checkouts differ:\nexit %d, %d\nstdout:\n%s\n---\n%s\nstderr:\n%s\n---\n%s", what, ca, cb, sa, sb, ea, eb)
				}
				if len(wa) != len(wb) {
					t.Errorf("%s: %d manifests from one checkout, %d from the other", what, len(wa), len(wb))
				}
				for name, data := range wa {
					if !bytes.Equal(data, wb[name]) {
						t.Errorf("%s: %s differs between the checkouts:\n%s\n---\n%s", what, name, data, wb[name])
					}
				}
				return sa
			}
			stdout := compare("as is", nil, nil)
			rep := decodeReport(t, stdout)
			if sk := rep.Modules[0].Skeleton; sk != "" {
				filled := fillSkeleton(t, sk)
				// The declarations files live in different folders; give
				// both the same name relative to the project.
				pa := filepath.Join(filepath.Dir(fa), "c2m-test-decl.yaml")
				pb := filepath.Join(filepath.Dir(fb), "c2m-test-decl.yaml")
				for _, p := range []string{pa, pb} {
					if err := os.WriteFile(p, filled, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				compare("with the filled skeleton", []string{"--declarations", filepath.Base(pa)}, []string{"--declarations", filepath.Base(pb)})
			}
		})
	}
}

// copyTree copies the regular files and folders under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
