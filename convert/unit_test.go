package convert

import (
	"reflect"
	"sort"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
)

func TestTargetName(t *testing.T) {
	for in, want := range map[string]string{
		"/var/lib/postfix": "var-lib-postfix",
		"/data":            "data",
		"/a/b/":            "a-b",
	} {
		if got := targetName(in); got != want {
			t.Errorf("targetName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUserOwner(t *testing.T) {
	src := func(services ...string) *placement.Placement {
		s := &placement.Placement{}
		for _, svc := range services {
			s.Mounts = append(s.Mounts, project.Mount{Service: svc})
		}
		return s
	}
	tests := []struct {
		name     string
		s        *placement.Placement
		users    map[string]string
		owner    string
		conflict bool
	}{
		{"one numeric", src("a"), map[string]string{"a": "999:999"}, "999:999", false},
		{"two agree", src("a", "b"), map[string]string{"a": "1:2", "b": "1:2"}, "1:2", false},
		{"two disagree", src("a", "b"), map[string]string{"a": "1:2", "b": "3:4"}, "", true},
		{"uid only", src("a"), map[string]string{"a": "999"}, "", false},
		{"names", src("a"), map[string]string{"a": "postgres:postgres"}, "", false},
		{"none", src("a"), map[string]string{}, "", false},
		{"one without user", src("a", "b"), map[string]string{"a": "1:2"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			owner, _, why := userOwner(tc.s, tc.users)
			if owner != tc.owner || (why != "") != tc.conflict {
				t.Errorf("userOwner = %q, %q; want %q, conflict %v", owner, why, tc.owner, tc.conflict)
			}
		})
	}
}

func TestGroupSources(t *testing.T) {
	mounts := []project.Mount{
		{Service: "a", Kind: project.BindDirectory, Key: "./data", Target: "/data"},
		{Service: "b", Kind: project.BindDirectory, Key: "./data", Target: "/srv"},
		{Service: "a", Kind: project.NamedVolume, Volume: "db", Target: "/db"},
		{Service: "b", Kind: project.NamedVolume, Volume: "db", Target: "/db"},
		{Service: "a", Kind: project.Anonymous, Target: "/tmp/x"},
		{Service: "a", Kind: project.Tmpfs, Target: "/run"},
	}
	got := groupSources(mounts)
	var keys []string
	for _, s := range got {
		keys = append(keys, s.Section+" "+s.Key)
	}
	want := []string{"binds ./data", "volumes db", "anonymous a:/tmp/x"}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("groupSources keys = %q, want %q", keys, want)
	}
	if n := len(got[1].Mounts); n != 2 {
		t.Errorf("a shared named volume is %d sources' mounts, want one source with 2 mounts", n)
	}
	if s := got[0].Services(); !reflect.DeepEqual(s, []string{"a", "b"}) {
		t.Errorf("services = %q", s)
	}
}

func TestPlace(t *testing.T) {
	c := &converter{module: "mail", hostDir: "/opt/mail", volumeRoot: "/srv"}
	c.l = &project.Project{}
	bind := func(key string, e *declare.Entry) *placement.Placement {
		return &placement.Placement{Section: declare.SectionBinds, Key: key, Entry: e, Mounts: []project.Mount{{Source: key, Key: key}}}
	}
	tests := []struct {
		name string
		s    *placement.Placement
		want string
		bad  bool
	}{
		{"relative", bind("./data/spool", nil), "/opt/mail/data/spool", false},
		{"absolute", bind("/var/lib/x", nil), "/var/lib/x", false},
		{"relocated", bind("./data", &declare.Entry{Path: "/srv/elsewhere"}), "/srv/elsewhere", false},
		{"home", bind("~/x", nil), "", true},
		{"home relocated", bind("~/x", &declare.Entry{Path: "/srv/x"}), "/srv/x", false},
		{"anonymous", &placement.Placement{Section: declare.SectionAnonymous, Key: "postfix:/var/lib/postfix", Mounts: []project.Mount{{Service: "postfix", Target: "/var/lib/postfix"}}}, "/srv/mail/postfix/var-lib-postfix", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, problem := c.place(tc.s)
			if got != tc.want || (problem != nil) != tc.bad {
				t.Errorf("place = %q, %+v; want %q, problem %v", got, problem, tc.want, tc.bad)
			}
		})
	}
	c.hostDir, c.volumeRoot = "", ""
	if _, _, problem := c.place(bind("./data", nil)); problem == nil || problem.Why != placement.WhyNoHostProjectDirectory {
		t.Error("a relative bind without host_project_directory was placed")
	}
	if _, _, problem := c.place(&placement.Placement{Section: declare.SectionAnonymous, Key: "a:/x", Mounts: []project.Mount{{Service: "a", Target: "/x"}}}); problem == nil || problem.Why != placement.WhyNoVolumeRoot {
		t.Error("an anonymous volume without volume_root was placed")
	}
}

func TestParentFirstOrder(t *testing.T) {
	paths := []string{"/srv/mail-b", "/srv/mail/spool", "/opt/a", "/srv/mail", "/srv"}
	sort.Slice(paths, func(i, j int) bool { return manifest.ComparePaths(paths[i], paths[j]) < 0 })
	want := []string{"/opt/a", "/srv", "/srv/mail", "/srv/mail/spool", "/srv/mail-b"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("order = %q, want %q", paths, want)
	}
}
