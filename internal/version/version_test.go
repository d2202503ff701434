package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}},
			"compose2manifest v1.2.0, go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2025-01-02T03:04:05Z"}}},
			"compose2manifest (devel) revision 0123abcd (modified), 2025-01-02T03:04:05Z, go1.26.8"},
		{debug.BuildInfo{Main: debug.Module{}},
			"compose2manifest (devel) (no VCS revision: built with -buildvcs=false, by go test or outside a checkout)"},
	} {
		if got := fromBuildInfo(&tc.bi).String(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	if Get().Version == "" {
		t.Error("Get().Version is empty")
	}
}

// TestStamp: what the GitHub Action stamps fills in what a build from a
// copy of the source (no checkout) lacks, and never replaces what the
// build information says.
func TestStamp(t *testing.T) {
	devel := fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8"})
	released := fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}})
	sha := "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		in                        Info
		version, revision, source string
		want                      string
	}{
		{devel, "main", "", "9f86", "compose2manifest main (source sha256 9f86), go1.26.8"},
		{devel, sha, sha, "9f86", "compose2manifest " + sha + " revision " + sha + " (source sha256 9f86), go1.26.8"},
		{devel, "v1.3.0", "", "", "compose2manifest v1.3.0, go1.26.8"},
		{released, "main", "", "9f86", "compose2manifest v1.2.0 (source sha256 9f86), go1.26.8"},
		{devel, "", "", "", "compose2manifest (devel) (no VCS revision: built with -buildvcs=false, by go test or outside a checkout), go1.26.8"},
	} {
		if got := tc.in.Stamp(tc.version, tc.revision, tc.source).String(); got != tc.want {
			t.Errorf("Stamp(%q, %q, %q):\n got %s\nwant %s", tc.version, tc.revision, tc.source, got, tc.want)
		}
	}
}
