package imageconfig_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/imageconfig/imagetest"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// everySource serves img as repoTag from an in-memory registry (closed
// when t ends) and writes it to an OCI layout and a docker save archive,
// and returns its reference and the three sources that hold it.
func everySource(t *testing.T, repoTag string, img v1.Image) (string, []imageconfig.Source) {
	t.Helper()
	reg, err := imagetest.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	ref, err := reg.Push(repoTag, img)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lay, archive := filepath.Join(dir, "oci"), filepath.Join(dir, "image.tar")
	if err := imagetest.WriteLayout(lay, ref, img); err != nil {
		t.Fatal(err)
	}
	if err := imagetest.WriteArchive(archive, ref, img); err != nil {
		t.Fatal(err)
	}
	return ref, []imageconfig.Source{
		{Kind: imageconfig.Registry, Timeout: 10 * time.Second},
		{Kind: imageconfig.Layout, Path: lay},
		{Kind: imageconfig.Archive, Path: archive},
	}
}

// TestReadEverySource reads the same config from the in-memory registry,
// an OCI layout and a docker save archive: the same digest of the
// config (ID), User, Volumes and Env names (not values) from each.
func TestReadEverySource(t *testing.T) {
	img, err := imagetest.Image("70:70", []string{"/var/lib/app", "/data"}, []string{"PATH=/bin", "APP_HOME=/var/lib/app", "SECRET=hunter2"})
	if err != nil {
		t.Fatal(err)
	}
	ref, sources := everySource(t, "acme/app:1.2", img)
	want := imageconfig.Config{User: "70:70", Volumes: []string{"/data", "/var/lib/app"}, Env: []string{"APP_HOME", "PATH", "SECRET"}}
	id, _ := img.ConfigName()
	want.ID = id.String()
	for _, src := range sources {
		t.Run(string(src.Kind), func(t *testing.T) {
			got, err := imageconfig.Read(context.Background(), ref, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.Digest, "sha256:") {
				t.Errorf("digest %q", got.Digest)
			}
			got.Digest = ""
			if got.ID != want.ID || got.User != want.User || !slices.Equal(got.Volumes, want.Volumes) || !slices.Equal(got.Env, want.Env) {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
	// The registry and the layout serve the same manifest: the same digest.
	r, _ := imageconfig.Read(context.Background(), ref, sources[0], nil)
	l, _ := imageconfig.Read(context.Background(), ref, sources[1], nil)
	if d, _ := img.Digest(); r.Digest != d.String() || l.Digest != d.String() {
		t.Errorf("digests: registry %s, layout %s, want %s", r.Digest, l.Digest, d)
	}
}

// TestReadFailures: an image the source does not hold is an error that
// names the image and the source; a registry read stops at its timeout.
func TestReadFailures(t *testing.T) {
	img, err := imagetest.Image("", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := imagetest.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	ref, err := reg.Push("acme/app:1", img)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lay := filepath.Join(dir, "oci")
	if err := imagetest.WriteLayout(lay, ref, img); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "a.tar")
	if err := imagetest.WriteArchive(archive, ref, img); err != nil {
		t.Fatal(err)
	}
	other := reg.Host + "/acme/other:2"
	for _, tc := range []struct {
		src  imageconfig.Source
		want string
	}{
		{imageconfig.Source{Kind: imageconfig.Registry}, "(registry)"},
		{imageconfig.Source{Kind: imageconfig.Layout, Path: lay}, "holds no image named " + other},
		{imageconfig.Source{Kind: imageconfig.Layout, Path: filepath.Join(dir, "none")}, "layout " + filepath.Join(dir, "none")},
		{imageconfig.Source{Kind: imageconfig.Archive, Path: archive}, "archive " + archive},
	} {
		_, err := imageconfig.Read(context.Background(), other, tc.src, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), other) {
			t.Errorf("%s: got %v, want an error with %q", tc.src, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := imageconfig.Read(ctx, ref, imageconfig.Source{Kind: imageconfig.Registry}, nil); err == nil {
		t.Error("a cancelled context read the registry")
	}
	// A timeout shorter than any request.
	if _, err := imageconfig.Read(context.Background(), ref, imageconfig.Source{Kind: imageconfig.Registry, Timeout: time.Nanosecond}, nil); err == nil {
		t.Error("a registry read within 1ns")
	}
}

// TestLayoutNames: a layout names an image by its full reference, by its
// tag alone (skopeo copy oci:DIR:TAG), or containerd's way; a reference
// by digest finds the manifest of that digest.
func TestLayoutNames(t *testing.T) {
	img, err := imagetest.Image("1:1", []string{"/d"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "oci")
	if err := imagetest.WriteLayout(dir, "7.1", img); err != nil {
		t.Fatal(err)
	}
	d, _ := img.Digest()
	for _, ref := range []string{"acme/db:7.1", "docker.io/acme/db:7.1", "acme/db@" + d.String()} {
		got, err := imageconfig.Read(context.Background(), ref, imageconfig.Source{Kind: imageconfig.Layout, Path: dir}, nil)
		if err != nil || got.Digest != d.String() || got.User != "1:1" {
			t.Errorf("%s: %+v %v", ref, got, err)
		}
	}
	if _, err := imageconfig.Read(context.Background(), "acme/db:7.2", imageconfig.Source{Kind: imageconfig.Layout, Path: dir}, nil); err == nil || !strings.Contains(err.Error(), "it names 7.1") {
		t.Errorf("another tag: %v", err)
	}
}
