//go:build c2mtools

// Command c2mgen writes a synthetic tree of compose projects for measuring
// convert --batch (see scripts/bench.sh). It builds only with the c2mtools
// tag, so that go install ./... (as pre-commit runs it) installs only
// compose2manifest:
//
//	go run -tags c2mtools ./internal/gen/c2mgen -projects 2000 -services 10 -volumes 4 -o DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/compose2manifest/compose2manifest/internal/gen"
)

func main() {
	var s gen.Shape
	flag.IntVar(&s.Projects, "projects", 2000, "number of projects")
	flag.IntVar(&s.Services, "services", 10, "services per project")
	flag.IntVar(&s.Volumes, "volumes", 4, "volumes per service")
	out := flag.String("o", "", "output `DIR` (created if missing)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: c2mgen [-projects N] [-services N] [-volumes N] -o DIR")
		os.Exit(2)
	}
	if err := gen.Tree(*out, s); err != nil {
		fmt.Fprintf(os.Stderr, "c2mgen: error: %v\n", err)
		os.Exit(1)
	}
}
