package convert

import "testing"

// TestKeepRoot: the roots: entry offered to keep an absolute source's
// data where it is names the module's own folder on its path, or the
// source itself, and nothing where no root may be.
func TestKeepRoot(t *testing.T) {
	for _, tc := range []struct{ path, module, want string }{
		{"/mnt/docker-volumes/app/db", "app", "/mnt/docker-volumes/app"},
		{"/mnt/docker-volumes/other/db", "app", "/mnt/docker-volumes/other/db"},
		{"/mnt/app", "app", "/mnt/app"},
		{"/usr/share/appdata/app/config", "app", ""},  // under /usr: no root
		{"/home/alice/app", "app", "/home/alice/app"}, // a folder in a home may be a root
		{"/home/alice", "app", ""},                    // the home itself: no root
		{"/srv/app/db", "app", ""},                    // ownable already
		{"/etc/ssh", "app", ""},
	} {
		if got := keepRoot(tc.path, tc.module); got != tc.want {
			t.Errorf("keepRoot(%q, %q) = %q, want %q", tc.path, tc.module, got, tc.want)
		}
	}
}
