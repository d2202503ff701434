package project

import (
	"context"
	"time"
)

// ComposeLoader prepares what Load hands compose-go for opts (the
// inputs, the compose files' bytes, the casts) and returns a function
// that has compose-go load the project as Load does, and nothing else:
// the load alone, for BenchmarkOwnCost.
func ComposeLoader(opts Options) (func(context.Context) error, error) {
	registerRawEnv()
	in, err := resolveInputs(opts, "")
	if err != nil {
		return nil, err
	}
	po, err := in.projectOptions(opts)
	if err != nil {
		return nil, err
	}
	l := &Project{Dir: in.dir, Environment: po.Environment, ConfigFiles: in.files, start: time.Now(), seen: in.seen}
	l.raw = readRaw(in.files, l.Rel, l.Environment, in.dir, in.roots, in.reads)
	casts := castsFor(l.raw)
	return func(ctx context.Context) error {
		_, _, err := l.loadCompose(ctx, in, opts, po, casts)
		return err
	}, nil
}
