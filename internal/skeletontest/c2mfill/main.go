//go:build c2mtools

// Command c2mfill reads a JSON report of a refused convert on stdin and
// writes its module's declarations skeleton, filled with placeholders
// (skeletontest.Fill), on stdout, so that a measurement can convert a
// corpus project all the way to a manifest (see scripts/bench.sh):
//
//	compose2manifest convert --format json | go run -tags c2mtools ./internal/skeletontest/c2mfill >compose2manifest.yaml
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "c2mfill: error: %v\n", err)
		os.Exit(1)
	}
}

// run fills the skeleton of the one module of the report read from r.
func run(r io.Reader, w io.Writer) error {
	var report struct {
		Modules []struct {
			Skeleton string `json:"skeleton"`
		} `json:"modules"`
	}
	if err := json.NewDecoder(io.LimitReader(r, 16<<20)).Decode(&report); err != nil {
		return fmt.Errorf("reading the report: %w", err)
	}
	if len(report.Modules) != 1 {
		return fmt.Errorf("the report has %d modules, want 1", len(report.Modules))
	}
	if report.Modules[0].Skeleton == "" {
		return nil // nothing refused: no declarations needed
	}
	out, err := skeletontest.Fill([]byte(report.Modules[0].Skeleton))
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
