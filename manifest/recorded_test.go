package manifest

import (
	"strings"
	"testing"
)

func recordedModule() *Module {
	return &Module{Version: 1, Module: "app",
		Sources:       []Source{{File: "compose.yaml", SHA256: strings.Repeat("a", 64)}},
		ConvertedWith: &Settings{Profiles: []string{"p"}, EnvFiles: []string{"env/prod.env"}, AllowDirs: []string{"../shared"}, HostProjectDirectory: "/opt/app", VolumeRoot: "/srv", Strict: true},
		Resources:     []Resource{{Kind: KindDirectory, Path: "/srv/app", Owner: "0:0", Mode: "0755", Intent: IntentState}},
		Fingerprint: &Fingerprint{Conversion: 1, Images: strings.Repeat("b", 64), Variables: []string{"A", "B"}, VariablesSHA256: strings.Repeat("c", 64),
			Checkout: map[string]string{"./data": "directory", "./.env": "absent"}, Uncarried: 2},
	}
}

// TestRecordedRoundTrip: converted_with and fingerprint are written in a
// fixed place and order, read back strictly, and the body digest is that
// of the bytes without its line.
func TestRecordedRoundTrip(t *testing.T) {
	data, err := Encode(recordedModule())
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if i, j, k := strings.Index(s, "\nconverted_with:\n"), strings.Index(s, "\nresources:\n"), strings.Index(s, "\nfingerprint:\n"); !(strings.Index(s, "\nsources:") < i && i < j && j < k) {
		t.Fatalf("converted_with must follow sources and fingerprint come last:\n%s", s)
	}
	rec, actual, ok := BodyDigest(data)
	if !ok || rec != actual {
		t.Fatalf("BodyDigest = %q, %q, %v; want equal digests\n%s", rec, actual, ok, s)
	}
	m, err := Decode("m.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if !m.ConvertedWith.Equal(recordedModule().ConvertedWith) {
		t.Errorf("converted_with read back as %s", m.ConvertedWith)
	}
	f := m.Fingerprint
	if f == nil || f.Body != rec || f.Uncarried != 2 || f.Checkout["./data"] != "directory" || strings.Join(f.Variables, ",") != "A,B" {
		t.Errorf("fingerprint read back as %+v", f)
	}
	again, err := Encode(m)
	if err != nil || string(again) != s {
		t.Errorf("Encode(Decode(x)) differs from x: %v\n%s", err, again)
	}
	// One byte changed anywhere is no longer what a conversion wrote.
	edited := []byte(strings.Replace(s, `mode: "0755"`, `mode: "0775"`, 1))
	if rec, actual, ok := BodyDigest(edited); !ok || rec == actual {
		t.Errorf("an edited manifest keeps its body digest")
	}
	if _, _, ok := BodyDigest([]byte(s + "# more\n")); ok {
		t.Errorf("a manifest with a line after the body digest is taken as generated")
	}
}

func TestRecordedStrict(t *testing.T) {
	base := "version: 1\nmodule: app\nresources: []\n"
	for _, tc := range []struct{ doc, want string }{
		{"converted_with: {colour: red}\n", `unknown key "colour" in converted_with`},
		{"converted_with: {volume_root: srv}\n", `volume_root "srv" must be an absolute, clean path`},
		{"converted_with: {volume_root: /" + strings.Repeat("r", 256) + "}\n", `m.yaml:4: volume_root "/rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr…" has a component of 256 bytes`},
		{"converted_with: {host_project_directory: /opt" + strings.Repeat("/p", 2100) + "}\n", `m.yaml:4: host_project_directory "/opt/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p…" is 4204 bytes long, over 4095 (PATH_MAX)`},
		{"converted_with: {env_files: [/etc/x.env]}\n", `must be a path relative to the project directory`},
		{"converted_with: {strict: false}\n", `strict must be true`},
		{"converted_with: [a]\n", `converted_with must be a mapping`},
		{"fingerprint: {conversion: 1, images: x, variables: {sha256: " + strings.Repeat("c", 64) + "}, body: " + strings.Repeat("d", 64) + "}\n", `fingerprint images must be a lowercase hex sha256`},
		{"fingerprint: {conversion: 1}\n", `fingerprint lacks body`},
		{"fingerprint: {body: " + strings.Repeat("d", 64) + ", extra: 1}\n", `unknown key "extra" in fingerprint`},
	} {
		_, err := Decode("m.yaml", []byte(base+tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) = %v; want an error containing %q", tc.doc, err, tc.want)
		}
	}
}
