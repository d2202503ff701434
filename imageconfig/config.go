// Package imageconfig reads what an image's config says of the data its
// container keeps (User, Volumes and the names of its Env), and what its
// layers hold at the paths the project mounts volumes on (PathFact), from
// a registry, a local OCI image layout or a docker save archive, with
// github.com/google/go-containerregistry, and pins it by digest in the
// image lock, a file beside the declarations that convert reads offline
// (LockFile). Reading the lock never touches the network; refreshing it
// (Refresh) does, or reads the layout or archive named.
package imageconfig

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Kind says where an image's config was read.
type Kind string

// The kinds of Source.
const (
	// Registry: the registry the reference names (remote.Image).
	Registry Kind = "registry"
	// Layout: a local OCI image layout (layout.FromPath), the image the
	// reference names by its org.opencontainers.image.ref.name or
	// io.containerd.image.name annotation.
	Layout Kind = "layout"
	// Archive: a docker save archive (tarball.ImageFromPath), the image
	// its manifest.json tags with the reference.
	Archive Kind = "archive"
)

// Source is where Read reads an image's config.
type Source struct {
	Kind Kind
	// Path is the layout's directory or the archive's file; "" for the
	// registry.
	Path string
	// Timeout bounds one registry read; 0 means DefaultTimeout.
	Timeout time.Duration
	// Options are extra options of remote.Image (tests pass a transport).
	Options []remote.Option
}

// DefaultTimeout bounds one registry read when Source.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// String names the source as a lock entry's source: and path: say it:
// "registry", "layout DIR", "archive FILE".
func (s Source) String() string {
	if s.Path == "" {
		return string(s.Kind)
	}
	return string(s.Kind) + " " + s.Path
}

// Config is what an image's config says of its data.
type Config struct {
	// Digest is the image manifest's digest ("sha256:…"): the reference
	// pinned is REPOSITORY@Digest.
	Digest string
	// ID is the config blob's digest, the image ID docker shows; the same
	// from a registry, a layout and an archive.
	ID string
	// User is the config's User ("999:999", "nobody", ""), as written.
	User string
	// Volumes are the config's VOLUME paths, sorted.
	Volumes []string
	// Env are the names of the config's Env variables, sorted: their
	// values are not kept.
	Env []string
	// Paths are what the image's layers hold at the paths Read was asked
	// of, sorted by path: what docker copies into a new volume mounted
	// there.
	Paths []PathFact
}

// Path returns the fact of the container path p, nil when Read was not
// asked of it.
func (c *Config) Path(p string) *PathFact {
	for i := range c.Paths {
		if c.Paths[i].Path == p {
			return &c.Paths[i]
		}
	}
	return nil
}

// Read reads the config of the image ref from src, and what its layers
// hold at each container path of paths (absolute, clean). A registry
// read, layers included, is bounded by ctx and src.Timeout.
func Read(ctx context.Context, ref string, src Source, paths []string) (Config, error) {
	if src.Kind == Registry {
		timeout := src.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	img, err := image(ctx, ref, src)
	if err != nil {
		return Config{}, fmt.Errorf("image %s (%s): %w", ref, src, err)
	}
	c, err := configOf(img)
	if err != nil {
		return Config{}, fmt.Errorf("image %s (%s): %w", ref, src, err)
	}
	if len(paths) > 0 {
		if c.Paths, err = pathFacts(img, paths); err != nil {
			return Config{}, fmt.Errorf("image %s (%s): layers: %w", ref, src, err)
		}
	}
	return c, nil
}

// image opens the image ref at src; a registry read is bounded by ctx.
func image(ctx context.Context, ref string, src Source) (v1.Image, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return nil, err
	}
	switch src.Kind {
	case Registry:
		// Credentials as docker login stored them ($DOCKER_CONFIG), else
		// anonymous; the default platform, linux/amd64, of an index.
		opts := []remote.Option{remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)}
		img, err := remote.Image(r, append(opts, src.Options...)...)
		if err != nil {
			return nil, err
		}
		// The config is read within the timeout too (remote.Image reads
		// the manifest only), and so are the layers (pathFacts).
		if _, err := img.ConfigFile(); err != nil {
			return nil, err
		}
		return img, nil
	case Layout:
		return fromLayout(src.Path, ref, r)
	case Archive:
		tag, ok := r.(name.Tag)
		if !ok {
			return nil, fmt.Errorf("a docker save archive names its images by tag, not by digest")
		}
		return tarball.ImageFromPath(src.Path, &tag)
	}
	return nil, fmt.Errorf("no image source %q: want registry, layout or archive", src.Kind)
}

// Annotations naming an image in an OCI layout: the OCI one (a tag, or a
// full reference) and containerd's (a full reference).
const (
	annotationRefName    = "org.opencontainers.image.ref.name"
	annotationContainerd = "io.containerd.image.name"
)

// fromLayout returns the image of the layout at dir that the reference
// given as ref (parsed: r) names.
func fromLayout(dir, ref string, r name.Reference) (v1.Image, error) {
	p, err := layout.FromPath(dir)
	if err != nil {
		return nil, err
	}
	idx, err := p.ImageIndex()
	if err != nil {
		return nil, err
	}
	m, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	want := []string{ref, r.Name(), r.Identifier()}
	var names []string
	for _, d := range m.Manifests {
		for _, key := range []string{annotationRefName, annotationContainerd} {
			n := d.Annotations[key]
			if n == "" {
				continue
			}
			names = append(names, n)
			if slices.Contains(want, n) || (strings.HasPrefix(r.Identifier(), "sha256:") && d.Digest.String() == r.Identifier()) {
				return idx.Image(d.Digest)
			}
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("the layout names none of its images (no %s annotation)", annotationRefName)
	}
	return nil, fmt.Errorf("the layout holds no image named %s (it names %s)", ref, strings.Join(names, ", "))
}

// configOf reads the config of img.
func configOf(img v1.Image) (Config, error) {
	cf, err := img.ConfigFile()
	if err != nil {
		return Config{}, err
	}
	digest, err := img.Digest()
	if err != nil {
		return Config{}, err
	}
	id, err := img.ConfigName()
	if err != nil {
		return Config{}, err
	}
	c := Config{Digest: digest.String(), ID: id.String(), User: cf.Config.User}
	for p := range cf.Config.Volumes {
		c.Volumes = append(c.Volumes, p)
	}
	slices.Sort(c.Volumes)
	for _, kv := range cf.Config.Env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "" && !slices.Contains(c.Env, k) {
			c.Env = append(c.Env, k)
		}
	}
	slices.Sort(c.Env)
	return c, nil
}
