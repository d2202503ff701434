//go:build c2mtools

// Command c2mgen writes a synthetic tree of compose projects for measuring
// convert --batch (see scripts/bench.sh). It builds only with the c2mtools
// tag, so that go install ./... (as pre-commit runs it) installs only
// compose2manifest:
//
//	go run -tags c2mtools ./internal/gen/c2mgen -projects 2000 -services 10 -volumes 4 -o DIR
//
// With -flat, it writes one project (gen.Flat) into DIR instead: -services
// services, the first -binds of which mount a declared bind each.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose2manifest/compose2manifest/internal/gen"
)

func main() {
	var s gen.Shape
	flag.IntVar(&s.Projects, "projects", 2000, "number of projects")
	flag.IntVar(&s.Services, "services", 10, "services per project")
	flag.IntVar(&s.Volumes, "volumes", 4, "volumes per service")
	flat := flag.Bool("flat", false, "write one project of -services services and -binds binds (gen.Flat)")
	binds := flag.Int("binds", 0, "with -flat: how many services mount a bind")
	out := flag.String("o", "", "output `DIR` (created if missing)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: c2mgen [-projects N] [-services N] [-volumes N] -o DIR\n       c2mgen -flat -services N -binds N -o DIR")
		os.Exit(2)
	}
	var err error
	if *flat {
		err = writeFlat(*out, s.Services, *binds)
	} else {
		err = gen.Tree(*out, s)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "c2mgen: error: %v\n", err)
		os.Exit(1)
	}
}

// writeFlat writes gen.Flat's project into dir.
func writeFlat(dir string, services, binds int) error {
	compose, decl := gen.Flat("flat", services, binds)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), compose, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "compose2manifest.yaml"), decl, 0o644)
}
