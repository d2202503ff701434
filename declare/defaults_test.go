package declare

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDefaults(t *testing.T) {
	d, err := ParseDefaults(DefaultsFile, []byte("version: 1\nlayout: fhs\nvolume_root: /srv\nacknowledge: ['*.container_name', '*.volumes.*.z']\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Layout != "fhs" || d.VolumeRoot != "/srv" || len(d.Acknowledge) != 2 || !d.Acknowledge[0].Default {
		t.Errorf("defaults %+v", d)
	}
	for _, bad := range []string{"binds:\n  ./data: {owner: \"0:0\", mode: \"0750\", intent: state}\n", "host_project_directory: /opt/x\n", "module: x\n", "credentials:\n  web.TOKEN: tok\n"} {
		if _, err := ParseDefaults(DefaultsFile, []byte("version: 1\n"+bad)); err == nil || !strings.Contains(err.Error(), "a defaults file gives only") {
			t.Errorf("ParseDefaults accepts %q: %v", bad, err)
		}
	}
}

// A project's own declarations win where both say something; the
// defaults fill in the rest.
func TestWithDefaults(t *testing.T) {
	d, err := ParseDefaults(DefaultsFile, []byte("version: 1\nlayout: fhs\nvolume_root: /srv\nacknowledge: ['*.container_name', 'web.build']\n"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(DefaultFile, []byte("version: 1\nvolume_root: /data\nacknowledge: [web.build]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := WithDefaults(f, d)
	if got.VolumeRoot != "/data" || got.Layout != "fhs" {
		t.Errorf("settings: volume_root %q, layout %q", got.VolumeRoot, got.Layout)
	}
	if len(got.Acknowledge) != 2 || got.Acknowledge[0].String() != "web.build" || got.Acknowledge[0].Default || !got.Acknowledge[1].Default {
		t.Errorf("acknowledge: %+v", got.Acknowledge)
	}
	if WithDefaults(nil, d).Layout != "fhs" || WithDefaults(f, nil).VolumeRoot != "/data" || WithDefaults(nil, nil) != nil {
		t.Error("nil sides")
	}
}

// Every field of File is either what a defaults file may give or one
// ParseDefaults refuses: a field added to File must be placed here, so
// that a defaults file never carries it without a word.
func TestParseDefaultsCoversFile(t *testing.T) {
	allowed := map[string]bool{"Name": true, "Version": true, "Layout": true, "LayoutPos": true, "VolumeRoot": true, "VolumeRootPos": true, "Acknowledge": true, "Mounts": true}
	refused := map[string]bool{"Module": true, "ModulePos": true, "HostProjectDirectory": true, "HostProjectDirectoryPos": true,
		"ComposeFiles": true, "EnvFiles": true, "Profiles": true, "Binds": true, "Volumes": true, "Anonymous": true,
		"Directories": true, "Images": true, "Credentials": true, "Roots": true}
	ft := reflect.TypeFor[File]()
	for i := range ft.NumField() {
		if name := ft.Field(i).Name; !allowed[name] && !refused[name] && ft.Field(i).IsExported() {
			t.Errorf("File.%s is neither allowed in a defaults file nor refused by ParseDefaults", name)
		}
	}
}

// TestDefaultsMountKeys: a mounts: key is IMAGE:/TARGET, a lowercase
// repository without tag or digest and a clean target without an option;
// any other is an error naming the key's line, where one that could match
// nothing was accepted in silence (trial 4).
func TestDefaultsMountKeys(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{`localhost:5000/app:/data`, ""},
		{`docker.io/getumbrel/app-proxy:/extra/umbrel-app.yml`, ""},
		{`localhost:5000/app:/data:ro`, `the target holds ':'`},
		{`Example/App:/data`, `an image repository is lowercase`},
		{`example/app:1:/data`, `is not IMAGE:/TARGET`},
		{`example/app@sha256:ab:/data`, `is not IMAGE:/TARGET`},
		{`example/app`, `is not IMAGE:/TARGET`},
		{`example/app:/data/`, `target`},
	} {
		_, err := ParseDefaults("d.yaml", []byte("version: 1\nmounts:\n  \""+tc.key+"\": {owner: \"0:0\", mode: \"0755\", intent: state}\n"))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.key, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "d.yaml:3:")):
			t.Errorf("%s: error %v; want one at d.yaml:3 saying %q", tc.key, err, tc.want)
		}
	}
}
