package convert

import "testing"

// TestKeepRoot: the roots: entry offered to keep an absolute source's
// data where it is names the module's own folder on its path, or the
// source itself, unless it is a file, and nothing where no root may be.
func TestKeepRoot(t *testing.T) {
	for _, tc := range []struct {
		path, module string
		file         bool
		want         string
	}{
		{"/mnt/docker-volumes/app/db", "app", false, "/mnt/docker-volumes/app"},
		{"/mnt/docker-volumes/other/db", "app", false, "/mnt/docker-volumes/other/db"},
		{"/mnt/app", "app", false, "/mnt/app"},
		{"/usr/share/appdata/app/config", "app", false, ""},  // under /usr: no root
		{"/home/alice/app", "app", false, "/home/alice/app"}, // a folder in a home may be a root
		{"/home/alice", "app", false, ""},                    // the home itself: no root
		{"/srv/app/db", "app", false, ""},                    // ownable already
		{"/etc/ssh", "app", false, ""},
		{"/data/x/app.yaml", "app", true, ""},                 // a file: no root names it
		{"/data/app/conf/app.yaml", "app", true, "/data/app"}, // but the module's folder holds it
	} {
		if got := keepRoot(tc.path, tc.module, tc.file); got != tc.want {
			t.Errorf("keepRoot(%q, %q, file %v) = %q, want %q", tc.path, tc.module, tc.file, got, tc.want)
		}
	}
}
