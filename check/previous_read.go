package check

import (
	"context"
	"fmt"

	"github.com/compose2manifest/compose2manifest/plan"
)

// ReadPrevious reads the manifests before the change, from the directory
// dir or else the git revision rev (paths name the manifests, relative to
// wd), and the plan planFile names, when not "", whose moves are meant.
// Relative names are taken from wd.
func ReadPrevious(wd, dir, rev, planFile string, paths []string) (*Previous, error) {
	switch {
	case dir != "" && rev != "":
		return nil, fmt.Errorf("--previous and --previous-rev both name the manifests before the change; give one")
	case dir == "" && rev == "":
		return nil, fmt.Errorf("--plan needs --previous OLD_DIR or --previous-rev REV")
	}
	prev := &Previous{}
	var err error
	if dir != "" {
		if prev.Modules, err = ReadPreviousDir(wd, dir); err != nil {
			return nil, fmt.Errorf("--previous: %w", err)
		}
	} else if prev.Modules, err = ReadPreviousRev(context.Background(), wd, rev, paths); err != nil {
		return nil, fmt.Errorf("--previous-rev: %w", err)
	}
	if planFile != "" {
		p, err := plan.Read(resolve(wd, planFile))
		if err != nil {
			return nil, fmt.Errorf("--plan: %w", err)
		}
		prev.Planned = p.Planned
	}
	return prev, nil
}
