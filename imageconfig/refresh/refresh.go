// Package refresh refreshes a project's image lock (convert
// --refresh-images): it reads the project as convert does, reads the
// config of each image its services run from the registry, an OCI
// layout or a docker save archive (imageconfig.Read), and writes the
// lock beside the declarations (convert.LockPath) atomically.
package refresh

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/spf13/pflag"
)

// Request is what convert's image flags ask for.
type Request struct {
	// Refresh (--refresh-images) asks for the lock to be written again.
	Refresh bool
	// Layout (--image-layout) and Archive (--image-archive) name where
	// the configs are read instead of the registry.
	Layout, Archive string
	// Timeout bounds each registry read (imageconfig.DefaultTimeout).
	Timeout time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Flags adds convert's image flags to fs.
func Flags(fs *pflag.FlagSet) *Request {
	r := &Request{}
	fs.BoolVar(&r.Refresh, "refresh-images", false, "read the config (User, Volumes, Env names) of each image the project runs and write "+imageconfig.LockFile+" beside the declarations, then convert with it")
	fs.StringVar(&r.Layout, "image-layout", "", "with --refresh-images: read the images from the OCI image layout `DIR`, not the registry")
	fs.StringVar(&r.Archive, "image-archive", "", "with --refresh-images: read the images from the docker save archive `FILE`, not the registry")
	fs.DurationVar(&r.Timeout, "image-timeout", imageconfig.DefaultTimeout, "with --refresh-images: a registry read still running after `DURATION` fails")
	return r
}

// Source returns where r reads the configs, relative paths taken from wd.
func (r *Request) Source(wd string) (imageconfig.Source, error) {
	abs := func(p string) string {
		if filepath.IsAbs(p) || wd == "" {
			return p
		}
		return filepath.Join(wd, p)
	}
	switch {
	case !r.Refresh && (r.Layout != "" || r.Archive != ""):
		return imageconfig.Source{}, errors.New("--image-layout and --image-archive go with --refresh-images")
	case r.Layout != "" && r.Archive != "":
		return imageconfig.Source{}, errors.New("--image-layout and --image-archive name two sources; give one")
	case r.Layout != "":
		return imageconfig.Source{Kind: imageconfig.Layout, Path: abs(r.Layout)}, nil
	case r.Archive != "":
		return imageconfig.Source{Kind: imageconfig.Archive, Path: abs(r.Archive)}, nil
	}
	return imageconfig.Source{Kind: imageconfig.Registry, Timeout: r.Timeout}, nil
}

// Run refreshes the image lock of the project opts names when r asks for
// it (and checks r's flags when it does not): every image its services
// run is read afresh, and the lock is written only when all were read.
// environ and wd are the process's environment and working directory;
// batch is convert's --batch ROOT ("" for none): a batch is not
// refreshed. force replaces a lock compose2manifest did not write.
func (r *Request) Run(ctx context.Context, opts convert.Options, environ []string, wd, batch string, force bool) error {
	opts.Environ, opts.WorkingDirectory = environ, wd
	src, err := r.Source(wd)
	if err != nil || !r.Refresh {
		return err
	}
	if batch != "" {
		return errors.New("--refresh-images refreshes one project's lock: run it in each project, not with --batch")
	}
	lock, p, err := r.Lock(ctx, opts, src)
	if err != nil {
		return err
	}
	return imageconfig.WriteLock(p, lock, force)
}

// Lock reads the project of opts and returns the lock of its images read
// from src, and where it goes.
func (r *Request) Lock(ctx context.Context, opts convert.Options, src imageconfig.Source) (*imageconfig.Lock, string, error) {
	opts.SkipImageLock = true
	res, err := convert.Convert(ctx, opts)
	if res == nil || res.Status == convert.Failed {
		if err == nil {
			err = errors.New("the project does not load")
		}
		return nil, "", fmt.Errorf("--refresh-images: %w", err)
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	lock := &imageconfig.Lock{}
	targets := Targets(res)
	// Where the images were read, as the lock records it: relative to
	// the project when inside it, so that the lock reads the same on
	// every machine that checks the project out.
	recorded := src
	if rel, err := filepath.Rel(res.ProjectDirectory, src.Path); src.Path != "" && err == nil && filepath.IsLocal(rel) {
		recorded.Path = filepath.ToSlash(rel)
	}
	for _, ref := range Images(res) {
		c, err := imageconfig.Read(ctx, ref, src, targets[ref])
		if err != nil {
			return nil, "", fmt.Errorf("--refresh-images: %w", err)
		}
		lock.Images = append(lock.Images, imageconfig.Entry{Image: ref, Config: c, Source: recorded, ReadAt: now().UTC().Truncate(time.Second)})
	}
	return lock, convert.LockPath(opts, res.ProjectDirectory), nil
}

// Images returns the image references the services of res run, sorted,
// each once.
func Images(res *convert.Result) []string {
	mod := res.Module
	if mod == nil {
		mod = res.Candidate
	}
	var out []string
	if mod != nil {
		for _, c := range mod.Containers() {
			if c.Container.Image != "" {
				out = append(out, c.Container.Image)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Targets returns, for each image reference, the container paths its
// services mount named and anonymous volumes on, sorted, each once: the
// paths whose content and owner docker copies from the image into a new
// volume, read from its layers (imageconfig.PathFact). Secret-named
// sources are left out, as res.Sources leaves them.
func Targets(res *convert.Result) map[string][]string {
	out := map[string][]string{}
	for _, s := range res.Sources {
		for _, t := range s.Targets {
			out[t.Image] = append(out[t.Image], t.Target)
		}
	}
	for ref, ts := range out {
		slices.Sort(ts)
		out[ref] = slices.Compact(ts)
	}
	return out
}
