package convert

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOfferShared: a refusal's absolute bind source another project of a
// batch mounts is offered as kind: host, one inside another's mount is
// said to be, the counts and skeletons follow, and a secret stays masked
// in the skeleton written again.
func TestOfferShared(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "compose.yaml"), `name: media
services:
  app:
    image: example/app:1
    environment:
      API_TOKEN: ${TOKEN}
    volumes:
      - /mnt/library:/library
      - /mnt/apps/media:/data/${TOKEN}
      - ./conf:/conf
`)
	secret := "ghp_Zq81nXc3Vb7Lm2Pk9Rt4Wy6"
	writeFile(t, filepath.Join(dir, ".env"), "TOKEN="+secret+"\n")
	if err := os.Mkdir(filepath.Join(dir, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := Convert(context.Background(), Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, Layout: "fhs"})
	if err != nil || res.Status != Refused {
		t.Fatalf("convert: %v, %v", res.Status, err)
	}
	before := res.Decisions
	asked := map[string]bool{}
	changed := res.OfferShared(func(p string) ([]string, []string) {
		asked[p] = true
		switch {
		case p == "/mnt/library":
			return []string{"jellyfin", "plex"}, nil
		case p == "/mnt/apps/media":
			return nil, []string{"backup (/mnt/apps)"}
		}
		return nil, nil
	}, nil)
	if !changed {
		t.Fatal("OfferShared changed nothing")
	}
	if len(asked) != 2 {
		t.Errorf("asked about %v; want the two absolute binds only", asked)
	}
	skel := string(res.Skeleton)
	for _, want := range []string{
		"/mnt/library: {kind: host} # compose.yaml:8: service \"app\" → /library; projects jellyfin and plex of this batch also mount it",
		"inside what project backup (/mnt/apps) of this batch mounts: moving its data would take it from under that (C2M005), so the skeleton keeps it where it is, roots: [/mnt/apps/media]",
		"roots: [/mnt/apps/media]\n",
	} {
		if !strings.Contains(skel, want) {
			t.Errorf("skeleton lacks %q:\n%s", want, skel)
		}
	}
	if strings.Contains(skel, secret) || strings.Contains(string(res.Inline), secret) {
		t.Errorf("the skeleton written again shows the secret:\n%s", skel)
	}
	if res.Decisions != before-3 || res.Decisions != Decisions(res.Candidate.Module, res.Missing, res.Suggestions) {
		t.Errorf("decisions %d, before %d: want 3 fewer (owner, mode, intent of the shared library), as Decisions counts", res.Decisions, before)
	}
	// Nothing shared: nothing changes.
	if res.OfferShared(func(string) ([]string, []string) { return nil, nil }, func(string) (string, string) { return "", "" }) {
		t.Error("OfferShared with nothing shared reports a change")
	}
}
