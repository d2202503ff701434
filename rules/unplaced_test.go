package rules

import (
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/placement"
)

// UnplacedMessage words each cause convert finds, naming the source and
// the way out; none falls through to the generic wording.
func TestUnplacedMessage(t *testing.T) {
	for _, tc := range []struct {
		u    placement.Unplaced
		want []string
	}{
		{placement.Unplaced{Why: placement.WhyHome, What: "~/x"}, []string{"~/x", "home (~)", "declare its path"}},
		{placement.Unplaced{Why: placement.WhyNoHostProjectDirectory, What: "./data"}, []string{"relative bind source ./data", "set host_project_directory"}},
		{placement.Unplaced{Why: placement.WhyNoVolumeRoot, What: `named volume "db"`}, []string{`named volume "db" has no location`, "set volume_root"}},
		{placement.Unplaced{Why: placement.WhyOutsideRoot, What: `named volume ".."`, At: "/srv", Root: "/srv/app"}, []string{"would land at /srv, outside /srv/app"}},
		{placement.Unplaced{Why: placement.WhyNoIntent, What: "bind ./x"}, []string{"by its intent", "declare its intent"}},
		{placement.Unplaced{Why: placement.WhyNoName, What: "bind ./"}, []string{"cannot name bind ./"}},
		{placement.Unplaced{Why: placement.WhyCollision, What: "bind ./a", At: "/var/lib/app/a", Other: "named volume \"a\""}, []string{"at /var/lib/app/a, where named volume \"a\" lands too"}},
		{placement.Unplaced{Why: placement.WhyRootUndeclared, What: "bind ./a", At: "/var/lib/app/a", Root: "/var/lib/app"}, []string{"module root /var/lib/app has no declaration", "under directories:"}},
		{placement.Unplaced{Why: placement.WhyInsideUnplaced, What: "bind ./a/b", Holder: "./a", HolderWhy: &placement.Unplaced{Why: placement.WhyNoIntent, What: "bind ./a"}}, []string{"lies inside bind ./a", "layout fhs places bind ./a by its intent"}},
		{placement.Unplaced{Why: placement.WhyInvalidPath, What: "./d", At: "/srv/a\nb"}, []string{`source "./d" lands at "/srv/a\nb"`}},
		{placement.Unplaced{Why: placement.WhyInvalidPath, What: "./d", At: "/srv/" + strings.Repeat("d", 256)}, []string{`source "./d" has no location the host can create: its path "/srv/ddd`, "has a component of 256 bytes", "NAME_MAX"}},
	} {
		got := UnplacedMessage(&tc.u)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.u.Why, got, w)
			}
		}
		if strings.Contains(got, "("+string(tc.u.Why)+")") {
			t.Errorf("%s: generic wording %q", tc.u.Why, got)
		}
	}
}

func TestUndeclaredAndKindUnknownMessages(t *testing.T) {
	for _, tc := range []struct {
		got  string
		want string
	}{
		{UndeclaredMessage(&placement.Undeclared{}), "no declaration"},
		{UndeclaredMessage(&placement.Undeclared{Produced: []string{"owner 1000:1000"}, Missing: "mode, intent"}), "no declaration (produced owner 1000:1000; still missing mode, intent)"},
		{UndeclaredMessage(&placement.Undeclared{NoOwner: "rows disagree", OutOfVersion: "the image table knows x"}), "no declaration; no owner produced: rows disagree; the image table knows x"},
		{UndeclaredMessage(&placement.Undeclared{NotOwnable: "a system path", Source: "/etc/app"}), "no declaration (owner, mode, intent produced); bind source /etc/app is a system path, so its data must move: give it a path of its own with the produced values, or declare it kind: host"},
		{UndeclaredMessage(&placement.Undeclared{NotOwnable: "a system path", Source: "/etc/app", Layout: true}), "no declaration (owner, mode, intent produced); bind source /etc/app is a system path, so its data must move: accept the produced values, which layout fhs places by their intent, or declare it kind: host"},
		{KindUnknownMessage(&placement.KindUnknown{Source: "./a.conf", Shown: placement.ShownAbsent, Looks: "its name a.conf"}), "no kind declared, and ./a.conf is not in the checkout, so nothing tells a file from a directory; its name a.conf looks like a file, but docker would create a directory there"},
		{KindUnknownMessage(&placement.KindUnknown{Source: "~/c.pem", Shown: placement.ShownHome, Looks: "its name c.pem"}), "no kind declared, and ~/c.pem is in a home directory on the legacy host, which the checkout does not show, so nothing tells a file from a directory; its name c.pem looks like a file, but docker would create a directory there"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}
