package imageconfig_test

import (
	"archive/tar"
	"context"
	"slices"
	"testing"

	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/imageconfig/imagetest"
)

// TestReadPaths reads what the layers hold at the paths a project mounts
// volumes on, flattened as a container sees them, the same from a
// registry, an OCI layout and a docker save archive: a directory's owner
// and mode (setuid, setgid and sticky bits kept), a file, nothing, a path
// through a symbolic link, and a directory a later layer deletes.
func TestReadPaths(t *testing.T) {
	img, err := imagetest.Image("", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	img, err = imagetest.AddLayer(img,
		imagetest.Entry{Path: "var/", Type: tar.TypeDir, Mode: 0o755},
		imagetest.Entry{Path: "var/lib/", Type: tar.TypeDir, Mode: 0o755},
		imagetest.Entry{Path: "var/lib/postgresql/data/", Type: tar.TypeDir, Uid: 999, Gid: 999, Mode: 0o1777},
		imagetest.Entry{Path: "./srv/app", Type: tar.TypeDir, Uid: 1000, Gid: 1001, Mode: 0o750},
		imagetest.Entry{Path: "etc/app.conf", Type: tar.TypeReg, Mode: 0o644},
		imagetest.Entry{Path: "var/run", Type: tar.TypeSymlink, Link: "/run"},
		imagetest.Entry{Path: "old/", Type: tar.TypeDir, Uid: 5, Gid: 5, Mode: 0o700},
	)
	if err != nil {
		t.Fatal(err)
	}
	// A later layer deletes /old: the container does not see it.
	img, err = imagetest.AddLayer(img, imagetest.Entry{Path: ".wh.old", Type: tar.TypeReg})
	if err != nil {
		t.Fatal(err)
	}
	ref, sources := everySource(t, "acme/layers:1", img)
	paths := []string{"/var/lib/postgresql/data", "/srv/app", "/etc/app.conf", "/data", "/var/run/mysqld", "/old", "/srv/app"}
	want := []imageconfig.PathFact{
		{Path: "/data", Type: imageconfig.Absent},
		{Path: "/etc/app.conf", Type: imageconfig.File, Owner: "0:0", Mode: "0644"},
		{Path: "/old", Type: imageconfig.Absent},
		{Path: "/srv/app", Type: imageconfig.Directory, Owner: "1000:1001", Mode: "0750"},
		{Path: "/var/lib/postgresql/data", Type: imageconfig.Directory, Owner: "999:999", Mode: "1777"},
		{Path: "/var/run/mysqld", Type: imageconfig.Link},
	}
	for _, src := range sources {
		t.Run(string(src.Kind), func(t *testing.T) {
			got, err := imageconfig.Read(context.Background(), ref, src, paths)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Paths, want) {
				t.Errorf("paths:\ngot  %v\nwant %v", got.Paths, want)
			}
		})
	}
	if _, err := imageconfig.Read(context.Background(), ref, sources[1], []string{"data"}); err == nil {
		t.Error("a relative container path was read")
	}
}

// TestPathFactRoundTrip writes each fact as the lock does and parses it
// back; malformed forms are refused.
func TestPathFactRoundTrip(t *testing.T) {
	for _, f := range []imageconfig.PathFact{
		{Path: "/a", Type: imageconfig.Directory, Owner: "999:999", Mode: "0700"},
		{Path: "/a", Type: imageconfig.File, Owner: "0:0", Mode: "0644"},
		{Path: "/a", Type: imageconfig.Absent},
		{Path: "/a", Type: imageconfig.Link},
	} {
		got, err := imageconfig.ParsePathFact("/a", f.String())
		if err != nil || got != f {
			t.Errorf("%v: got %v, %v", f, got, err)
		}
	}
	for _, bad := range []string{"", "directory", "directory 999 0700", "directory 999:999 700", "directory 999:999 0799", "absent 0:0 0755", "socket", "file a:b 0644"} {
		if _, err := imageconfig.ParsePathFact("/a", bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
