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
