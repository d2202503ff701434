// Package imagetest makes images for tests, never from the network: a
// random image with the config a test asks for, written to an OCI image
// layout or a docker save archive, or pushed to go-containerregistry's
// in-memory registry served by httptest.
package imagetest

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http/httptest"
	"net/url"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Image returns an image of one random layer (from a fixed seed: the
// same arguments give the same digest) whose config has user, the VOLUME
// paths volumes and the environment env (KEY=VALUE).
func Image(user string, volumes, env []string) (v1.Image, error) {
	img, err := random.Image(64, 1, random.WithSource(rand.NewSource(1)))
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Config.User, cf.Config.Env = user, env
	cf.Config.Volumes = map[string]struct{}{}
	for _, v := range volumes {
		cf.Config.Volumes[v] = struct{}{}
	}
	return mutate.ConfigFile(img, cf)
}

// Entry is one entry of a layer AddLayer makes: a directory (Type
// tar.TypeDir), a regular file (tar.TypeReg), a symbolic link
// (tar.TypeSymlink, to Link), or a whiteout (a Path whose base name
// starts with ".wh.", which deletes that name below it).
type Entry struct {
	Path     string
	Type     byte
	Uid, Gid int
	Mode     int64
	Link     string
}

// AddLayer returns img with one more layer, on top, holding entries.
func AddLayer(img v1.Image, entries ...Entry) (v1.Image, error) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		h := &tar.Header{Name: e.Path, Typeflag: e.Type, Uid: e.Uid, Gid: e.Gid, Mode: e.Mode, Linkname: e.Link, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := b.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		return nil, err
	}
	return mutate.AppendLayers(img, layer)
}

// WriteLayout writes img to the OCI image layout at dir (made or
// appended to), named ref by the org.opencontainers.image.ref.name
// annotation.
func WriteLayout(dir, ref string, img v1.Image) error {
	p, err := layout.FromPath(dir)
	if err != nil {
		if p, err = layout.Write(dir, empty.Index); err != nil {
			return err
		}
	}
	return p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref}))
}

// WriteArchive writes img to file as docker save does, tagged ref.
func WriteArchive(file, ref string, img v1.Image) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return err
	}
	return tarball.WriteToFile(file, tag, img)
}

// Registry is an in-memory registry served on a loopback port.
type Registry struct {
	server *httptest.Server
	// Host is its HOST:PORT, as image references name it.
	Host string
}

// NewRegistry starts an in-memory registry; Close stops it.
func NewRegistry() (*Registry, error) {
	s := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	u, err := url.Parse(s.URL)
	if err != nil {
		s.Close()
		return nil, err
	}
	return &Registry{server: s, Host: u.Host}, nil
}

// Push pushes img to the registry as HOST/repoTag.
func (r *Registry) Push(repoTag string, img v1.Image) (string, error) {
	ref := r.Host + "/" + repoTag
	tag, err := name.NewTag(ref)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ref, err)
	}
	return ref, remote.Write(tag, img)
}

// Close stops the registry.
func (r *Registry) Close() { r.server.Close() }
