package legacy

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/survey"
)

// TestSurveyThenConvert: the script survey writes for a project, run on
// a legacy host in a folder (a fake docker answering for its volume),
// prints what convert --survey takes: the project, refused without it
// (nothing tells ./app.conf's kind, nor anyone's owner and mode), is
// converted with it, each value from what its data has there.
func TestSurveyThenConvert(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := filepath.Join(t.TempDir(), "shop")
	write := func(name, text string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "compose.yaml"), "name: shop\nservices:\n  web:\n    image: example/web:1\n    volumes:\n      - ./app.conf:/etc/app.conf\n      - ./uploads:/uploads\n      - dbdata:/var/lib/web\nvolumes:\n  dbdata:\n", 0o644)
	write(filepath.Join(dir, "compose2manifest.yaml"), "version: 1\nhost_project_directory: /opt/shop\nvolume_root: /srv/shop\nbinds:\n  ./app.conf: {intent: config}\n  ./uploads: {intent: state}\nvolumes:\n  dbdata: {intent: state}\n", 0o644)
	opts := convert.Options{ProjectDirectory: dir}
	if res, err := convert.Convert(t.Context(), opts); err != nil || res.Status != convert.Refused {
		t.Fatalf("without a survey: %v %v", res.Status, err)
	}

	host := t.TempDir()
	legacy := filepath.Join(host, "opt", "shop")
	write(filepath.Join(legacy, "app.conf"), "x=1\n", 0o640)
	if err := os.MkdirAll(filepath.Join(legacy, "uploads"), 0o750); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(host, "docker", "volumes", "shop_dbdata", "_data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	x := func(s string) string { return hex.EncodeToString([]byte(s)) }
	write(filepath.Join(bin, "docker"), "#!/bin/sh\nfor a; do last=$a; done\ncase \"$1 $2 $last\" in\n"+
		"'volume inspect shop_dbdata') echo "+x("local")+":"+x(data)+" ;;\n'ps -a'*) ;;\n*) exit 1 ;;\nesac\n", 0o755)

	script := filepath.Join(t.TempDir(), "survey.sh")
	if f := Command(Request{Convert: opts, LegacyProjectDirectory: legacy, Output: script}, nil); f != nil {
		t.Fatal(f)
	}
	cmd := exec.Command("sh", script)
	cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("survey: %v\n%s", err, out)
	}
	s, err := survey.Read("survey.json", out)
	if err != nil {
		t.Fatal(err)
	}
	opts.Survey = s
	res, err := convert.Convert(t.Context(), opts)
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("with the survey: %v %v %v", res.Status, err, res.Diagnostics)
	}
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	for _, want := range []manifest.Resource{
		{Kind: manifest.KindFile, Path: "/opt/shop/app.conf", Owner: owner, Mode: "0640"},
		{Kind: manifest.KindDirectory, Path: "/opt/shop/uploads", Owner: owner, Mode: "0750"},
		{Kind: manifest.KindDirectory, Path: "/srv/shop/shop/dbdata", Owner: owner, Mode: "0700"},
	} {
		var got *manifest.Resource
		for _, r := range res.Module.Declared() {
			if r.Path == want.Path {
				got = r
			}
		}
		if got == nil || got.Kind != want.Kind || got.Owner != want.Owner || got.Mode != want.Mode || !strings.Contains(got.Comment, s.Provenance()) {
			t.Errorf("%s: %+v; want %s %s %s from %s", want.Path, got, want.Kind, want.Owner, want.Mode, s.Provenance())
		}
	}
}
