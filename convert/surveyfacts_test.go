package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/compose2manifest/compose2manifest/survey"
)

// surveyedProject is a project whose bind sources are not in the
// checkout, and the legacy host's survey of it.
const surveyedProject = `name: shop
services:
  db:
    image: postgres:16
    volumes:
      - dbdata:/var/lib/postgresql/data
  web:
    image: example/web:1
    volumes:
      - ./app.conf:/etc/app.conf
      - ./uploads:/uploads
      - ./open:/open
volumes:
  dbdata:
`

const shopSurvey = `{"version":1,"host":"old-nas","date":"2026-12-02T15:20:00Z","project":"shop","user":"","docker":true,"sources":[
{"section":"binds","key":"./app.conf","path":"/opt/shop/app.conf","exists":true,"type":"file","owner":"0:0","mode":"640","bytes":12},
{"section":"binds","key":"./uploads","path":"/opt/shop/uploads","exists":true,"type":"directory","owner":"33:33","mode":"750","usage_kib":4,"files":1,"complete":true},
{"section":"binds","key":"./open","path":"/opt/shop/open","exists":true,"type":"directory","owner":"33:33","mode":"777","usage_kib":4,"files":0,"complete":true},
{"section":"volumes","key":"dbdata","volume":"shop_dbdata","driver":"local","path":"/var/lib/docker/volumes/shop_dbdata/_data","exists":true,"type":"directory","owner":"70:70","mode":"700","usage_kib":4,"files":1,"complete":true}],"images":[]}`

// convertSurveyed converts surveyedProject with the survey, or without
// one when s is nil.
func convertSurveyed(t *testing.T, s *survey.Survey) *Result {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shop")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(surveyedProject), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Convert(t.Context(), Options{ProjectDirectory: dir, HostProjectDirectory: "/opt/shop", VolumeRoot: "/srv/shop", Survey: s})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSurveyFacts: the survey settles the kind of a bind source the
// checkout does not have (no C2M004 left), gives owner and mode where
// nothing else did, said "survey HOST DATE", shows where it disagrees
// with the image table, and carries no world-writable mode.
func TestSurveyFacts(t *testing.T) {
	s, err := survey.Read("survey.json", []byte(shopSurvey))
	if err != nil {
		t.Fatal(err)
	}
	without := convertSurveyed(t, nil)
	if !hasRule(without, "C2M004") {
		t.Fatal("without the survey, ./app.conf's kind is unknown: C2M004 expected")
	}
	res := convertSurveyed(t, s)
	if hasRule(res, "C2M004") {
		t.Errorf("the survey found ./app.conf a file, yet C2M004: %v", res.Diagnostics)
	}
	known := map[string]declare.Entry{}
	for _, m := range res.Missing {
		known[m.Key] = m.Known
	}
	if e := known["./app.conf"]; e.Kind != declare.KindFile || e.Owner != "0:0" || e.Mode != "0640" {
		t.Errorf("./app.conf: %+v", e)
	}
	if e := known["./uploads"]; e.Owner != "33:33" || e.Mode != "0750" {
		t.Errorf("./uploads: %+v", e)
	}
	if e := known["./open"]; e.Owner != "33:33" || e.Mode != "" {
		t.Errorf("./open, world-writable on the legacy host: %+v", e)
	}
	mod := res.Candidate
	if mod == nil {
		mod = res.Module
	}
	db := resourceOf(mod, "dbdata")
	if db == nil {
		t.Fatalf("no resource for dbdata in %+v", mod)
	}
	// The image table's owner stays; the survey's other one is said.
	if db.Owner != "999:999" || !strings.Contains(db.Comment, "survey old-nas 2026-12-02T15:20:00Z found owner 70:70 there") {
		t.Errorf("dbdata: owner %s, comment %q", db.Owner, db.Comment)
	}
}

// TestSurveyOfAnotherProject: a survey of another project is refused:
// its keys would match this one's sources.
func TestSurveyOfAnotherProject(t *testing.T) {
	s, err := survey.Read("survey.json", []byte(strings.Replace(shopSurvey, `"project":"shop"`, `"project":"mail"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(surveyedProject), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Convert(t.Context(), Options{ProjectDirectory: dir, Survey: s})
	if err == nil || res.Status != Failed || !strings.Contains(err.Error(), `the survey is of project "mail" (on old-nas), not of "shop"`) {
		t.Errorf("%v %v", res.Status, err)
	}
}

func hasRule(res *Result, id string) bool {
	for _, d := range res.Diagnostics {
		if d.Rule == id {
			return true
		}
	}
	return false
}

// resourceOf is the resource of mod made for the compose source src.
func resourceOf(mod *manifest.Module, src string) *manifest.Resource {
	for i, r := range mod.Resources {
		if r.Origin != nil && r.Origin.Source == src {
			return &mod.Resources[i]
		}
	}
	return nil
}

// TestUnchosen: a mode evidence found (a survey, an image's layers) is
// carried where a declared one is accepted, and not where C2M021 refuses
// it: one judge (rules.UnsafeMode). They disagreed on 1777, a shared drop
// box C2M021 accepts, which the evidence path refused and offered as 0775
// (no longer writable by the others that share it).
func TestUnchosen(t *testing.T) {
	dir := &manifest.Resource{Kind: manifest.KindDirectory}
	file := &manifest.Resource{Kind: manifest.KindFile}
	for _, tc := range []struct {
		mode      string
		r         *manifest.Resource
		t         survey.Type
		unchosen  bool
		suggested string
	}{
		{"0777", dir, survey.Directory, true, "0775"},
		{"1777", dir, survey.Directory, false, ""},
		{"1777", dir, "", false, ""}, // an image's layers: the resource's kind
		{"0770", dir, survey.Directory, false, ""},
		{"2775", dir, survey.Directory, false, ""},
		{"0700", dir, survey.Directory, false, ""},
		{"0600", dir, survey.Directory, true, "0700"},
		{"0666", dir, survey.File, true, "0664"}, // a file where a directory was declared: the data's kind
		{"0644", file, survey.File, false, ""},
		{"0755", dir, survey.Directory, false, ""},
		{"x", file, survey.File, true, ""},
	} {
		why := unchosen(tc.r, tc.mode, tc.t)
		if (why != "") != tc.unchosen {
			t.Errorf("unchosen(%s, %s, %q) = %q, want unchosen %v", tc.r.Kind, tc.mode, tc.t, why, tc.unchosen)
		}
		if k := evidenceKind(tc.r, tc.t); why != "" && why != "not an octal mode" && why != rules.UnsafeMode(k, tc.mode) {
			t.Errorf("unchosen(%s, %s) says %q, C2M021 %q", k, tc.mode, why, rules.UnsafeMode(k, tc.mode))
		}
		if why != "" {
			if got := rules.SaferMode(evidenceKind(tc.r, tc.t), tc.mode); got != tc.suggested {
				t.Errorf("suggested for %s %s: %q, want %q", tc.r.Kind, tc.mode, got, tc.suggested)
			}
		}
	}
}
