package exampletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMail: the copy mounts ./config and ./main.cf writable, and is the
// example otherwise.
func TestMail(t *testing.T) {
	dir := Mail(t, "../../testdata/example/mail")
	got, err := os.ReadFile(filepath.Join(dir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../testdata/example/mail/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"./config:/etc/postfix/conf.d", "./main.cf:/etc/postfix/main.cf"} {
		if !strings.Contains(string(got), src+"\n") || strings.Contains(string(got), src+":ro") {
			t.Errorf("the copy does not mount %s writable", src)
		}
	}
	if strings.ReplaceAll(string(want), ":ro\n", "\n") != strings.ReplaceAll(string(got), ":ro\n", "\n") {
		t.Error("the copy differs from the example in more than :ro")
	}
	if _, err := os.Stat(filepath.Join(dir, "compose2manifest.yaml")); err != nil {
		t.Errorf("the declarations were not copied: %v", err)
	}
}
