package shell

import (
	"os/exec"
	"testing"
)

// Quote gives the shell back each word as it was, odd bytes, newlines and
// workflow-command prefixes included, and no line of it starts "::" or
// holds "##[".
func TestQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{"", "a", "it's", "''", "new\nline", "$x `y` \\ *", "bad\xff", "-rf", "a##[b", "x\n::error::y", "x\n  ::warning::z"} {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh read Quote(%q) = %q as %q (%v)", s, Quote(s), out, err)
		}
	}
}

func TestValidVolumeName(t *testing.T) {
	for name, want := range map[string]bool{"c2m-test_db": true, "x.y-z_1": true, "a": false, "_x": false, "a/b": false, "..": false, "a\x00b": false, "": false} {
		if got := ValidVolumeName(name); got != want {
			t.Errorf("ValidVolumeName(%q) = %v, want %v", name, got, want)
		}
	}
}
