package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/schematest"
	"github.com/compose2manifest/compose2manifest/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is a report with an error, a warning, a diagnostic without rule or
// line, a module with no diagnostics and text that needs escaping.
func sample() *Report {
	return &Report{Tool: &Tool{Name: "compose2manifest", Version: "v1.2.3", Revision: "0123456789abcdef0123456789abcdef01234567"}, Modules: []Module{
		{Module: "mail", Status: Refused, Diagnostics: []rules.Diagnostic{
			{Rule: "C2M001", Severity: rules.Error, File: "mail/compose.yaml", Line: 14, Service: "postfix", Source: "./data/spool", Target: "/var/spool/postfix", Module: "mail",
				Message: "no declaration for this source", Fix: "Declare the source in compose2manifest.yaml."},
			{Rule: "C2M011", Severity: rules.Warning, File: "mail/compose2manifest.yaml", Line: 3, Module: "mail",
				Message: "parent /data of /data/mail is not declared; 100% sure, a:b", Fix: "Declare the parent."},
		}},
		{Module: "web", Status: Converted, Output: "out/web.yaml"},
		{Module: "bad.yaml", Status: Failed, File: "dir, with comma/bad.yaml", Diagnostics: []rules.Diagnostic{
			{Severity: rules.Error, File: "dir, with comma/bad.yaml", Message: "line one\nline two\r"},
		}},
	}}
}

// sampleRules is a fixed rule list, so the golden SARIF does not change when
// the real rules' docs do.
func sampleRules() []*rules.Rule {
	return []*rules.Rule{
		{ID: "C2M001", Title: "a volume's host source has no declaration", Severity: rules.Error,
			Doc: "Every source must be declared.\nExactly.\n\nDeclare the source."},
		{ID: "C2M011", Title: "a declared path's parent is not declared", Severity: rules.Warning,
			Doc: "The host creates a missing parent as root 0755.\n\nDeclare the parent."},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, *Report) error
	}{
		{"sample.txt", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
		{"sample.json", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
		{"sample.sarif", func(b *bytes.Buffer, r *Report) error { return WriteSARIF(b, r, sampleRules(), SARIFOptions{}) }},
		{"sample.github", func(b *bytes.Buffer, r *Report) error { return WriteGitHub(b, r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b1, b2 bytes.Buffer
			if err := tc.write(&b1, sample()); err != nil {
				t.Fatal(err)
			}
			if err := tc.write(&b2, sample()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
				t.Error("output is not deterministic")
			}
			golden(t, tc.name, b1.Bytes())
		})
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sample()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if want := `mail/compose.yaml:14: C2M001 error: service "postfix": volume "./data/spool": no declaration for this source`; lines[0] != want {
		t.Errorf("line 1 = %q, want %q", lines[0], want)
	}
	if want := "  fix: Declare the source in compose2manifest.yaml."; lines[1] != want {
		t.Errorf("line 2 = %q, want %q", lines[1], want)
	}
	if want := "dir, with comma/bad.yaml: error: line one line two"; lines[4] != want {
		t.Errorf("line 5 = %q, want %q", lines[4], want)
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, &Report{Modules: []Module{{Module: "m", Status: Checked}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"diagnostics": []`) || !strings.HasSuffix(b.String(), "}\n") {
		t.Errorf("want diagnostics [] and a trailing newline:\n%s", b.String())
	}
	var got struct {
		Modules []struct {
			Module      string            `json:"module"`
			Status      string            `json:"status"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		} `json:"modules"`
	}
	b.Reset()
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Modules) != 3 || got.Modules[0].Status != "refused" || len(got.Modules[0].Diagnostics) != 2 {
		t.Errorf("decoded %+v", got)
	}
	var d rules.Diagnostic
	if err := json.Unmarshal(got.Modules[0].Diagnostics[0], &d); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, sample().Modules[0].Diagnostics[0]) {
		t.Errorf("diagnostic round trip: got %+v", d)
	}
	if err := WriteJSON(&b, &Report{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"modules": []`) {
		t.Errorf("empty report: want modules []:\n%s", b.String())
	}
}

// sarifShape is what a SARIF 2.1.0 consumer requires of our logs; decoding
// with DisallowUnknownFields checks that nothing else is written.
type sarifShape struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string            `json:"name"`
				Version        string            `json:"version"`
				InformationURI string            `json:"informationUri"`
				Properties     map[string]string `json:"properties"`
				Rules          []struct {
					ID                   string                 `json:"id"`
					ShortDescription     struct{ Text string }  `json:"shortDescription"`
					FullDescription      struct{ Text string }  `json:"fullDescription"`
					HelpURI              string                 `json:"helpUri"`
					Help                 struct{ Text string }  `json:"help"`
					DefaultConfiguration struct{ Level string } `json:"defaultConfiguration"`
					Properties           struct {
						Tags             []string `json:"tags"`
						Precision        string   `json:"precision"`
						SecuritySeverity string   `json:"security-severity"`
						ProblemSeverity  string   `json:"problem.severity"`
					} `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Results []struct {
			RuleID    string                `json:"ruleId"`
			RuleIndex *int                  `json:"ruleIndex"`
			Level     string                `json:"level"`
			Message   struct{ Text string } `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations    []json.RawMessage `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	list := rules.All()
	if err := WriteSARIF(&b, sample(), list, SARIFOptions{BaseDir: "/work/repo"}); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	var log sarifShape
	if err := dec.Decode(&log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	// The rule list, then the rule of input that could not be read.
	list = append(list, rules.Unreadable())
	if d := run.Tool.Driver; d.Name != "compose2manifest" || len(d.Rules) != len(list) || d.Version != "v1.2.3" ||
		d.Properties["revision"] != sample().Tool.Revision || d.InformationURI != InformationURI {
		t.Errorf("driver %q version %q %v with %d rules", d.Name, d.Version, d.Properties, len(d.Rules))
	}
	if got := run.OriginalURIBaseIDs[SrcRoot].URI; got != "file:///work/repo/" {
		t.Errorf("originalUriBaseIds %s = %q, want file:///work/repo/", SrcRoot, got)
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID != list[i].ID || r.ShortDescription.Text != list[i].Title || r.Help.Text == "" || r.FullDescription.Text == "" ||
			r.HelpURI != RuleHelpURI(list[i].ID) ||
			r.DefaultConfiguration.Level != string(list[i].Severity) {
			t.Errorf("rule %d = %+v, want %s", i, r, list[i].ID)
		}
		// What code scanning ranks by: tags, precision, a
		// security-severity, high for the rules that lose data.
		rank := list[i].Rank()
		if p := r.Properties; !slices.Equal(p.Tags, rank.Tags) || p.Precision != rank.Precision || p.SecuritySeverity != rank.SecuritySeverityText() || p.ProblemSeverity != string(list[i].Severity) {
			t.Errorf("rule %s properties %+v, want %+v", r.ID, p, rank)
		}
		if slices.Contains(r.Properties.Tags, rules.TagDataLoss) && r.Properties.SecuritySeverity < "7.0" {
			t.Errorf("rule %s: data-loss with security-severity %s", r.ID, r.Properties.SecuritySeverity)
		}
	}
	if r := run.Tool.Driver.Rules[*run.Results[0].RuleIndex]; r.Properties.SecuritySeverity != "8.0" || !slices.Contains(r.Properties.Tags, rules.TagDataLoss) {
		t.Errorf("C2M001 properties %+v: want data-loss, 8.0", r.Properties)
	}
	fps := map[string]bool{}
	for i, res := range run.Results {
		fp := res.PartialFingerprints[FingerprintKey]
		if fp == "" || fps[fp] {
			t.Errorf("result %d: partialFingerprints %v: want a %s unique in the run", i, res.PartialFingerprints, FingerprintKey)
		}
		fps[fp] = true
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	r0 := run.Results[0]
	if r0.RuleID != "C2M001" || r0.RuleIndex == nil || run.Tool.Driver.Rules[*r0.RuleIndex].ID != "C2M001" || r0.Level != "error" {
		t.Errorf("result 0 = %+v", r0)
	}
	if loc := r0.Locations[0].PhysicalLocation; loc.ArtifactLocation.URI != "mail/compose.yaml" || loc.ArtifactLocation.URIBaseID != SrcRoot ||
		loc.Region == nil || loc.Region.StartLine != 14 {
		t.Errorf("result 0 location = %+v", loc)
	}
	if !strings.HasPrefix(r0.Message.Text, `service "postfix": volume "./data/spool": no declaration`) || r0.Properties["target"] != "/var/spool/postfix" {
		t.Errorf("result 0 message %q, properties %v", r0.Message.Text, r0.Properties)
	}
	if r1 := run.Results[1]; r1.Level != "warning" {
		t.Errorf("result 1 level %q, want warning", r1.Level)
	}
	// Input that could not be read has a rule of its own, and a result
	// without a line is about the file's first line.
	r2 := run.Results[2]
	if r2.RuleID != rules.Unreadable().ID || r2.RuleIndex == nil || *r2.RuleIndex != len(list)-1 ||
		r2.Locations[0].PhysicalLocation.Region == nil || r2.Locations[0].PhysicalLocation.Region.StartLine != 1 ||
		r2.Locations[0].PhysicalLocation.ArtifactLocation.URI != "dir,%20with%20comma/bad.yaml" || r2.Properties["module"] != "bad.yaml" {
		t.Errorf("result 2 = %+v", r2)
	}
}

func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.yaml":        "a/b.yaml",
		"/srv/x y/m.yaml": "file:///srv/x%20y/m.yaml",
		"100%.yaml":       "100%25.yaml",
		"a#b.yaml":        "a%23b.yaml",
		"./a/./b.yaml":    "a/b.yaml",
	} {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGitHub(t *testing.T) {
	for _, tc := range []struct {
		d    rules.Diagnostic
		want string
	}{
		{rules.Diagnostic{Rule: "C2M003", Severity: rules.Error, File: "m.yaml", Line: 9, Message: "x"},
			"::error file=m.yaml,line=9,title=C2M003::x"},
		{rules.Diagnostic{Rule: "C2M011", Severity: rules.Warning, File: "m.yaml", Message: "y", Fix: "do z"},
			"::warning file=m.yaml,title=C2M011::y%0Afix: do z"},
		{rules.Diagnostic{Severity: rules.Error, Message: "unreadable"},
			"::error title=compose2manifest::unreadable"},
		{rules.Diagnostic{Rule: "C2M001", Severity: rules.Error, File: "a,b:c%d\ne.yaml", Line: 1, Service: "s", Source: "./x", Message: "50% a:b, c\r\nd"},
			`::error file=a%2Cb%3Ac%25d%0Ae.yaml,line=1,title=C2M001::service "s": volume "./x": 50%25 a:b, c%0D%0Ad`},
		// The runner reads ##[ anywhere in a line as a command.
		{rules.Diagnostic{Rule: "C2M007", Severity: rules.Warning, File: "m.yaml", Line: 2, Message: "label ##[group]x"},
			`::warning file=m.yaml,line=2,title=C2M007::label ##\x5bgroup]x`},
	} {
		var b bytes.Buffer
		if err := WriteGitHub(&b, &Report{Modules: []Module{{Diagnostics: []rules.Diagnostic{tc.d}}}}); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(b.String(), "\n"); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	if e, w := Count(sample()); e != 2 || w != 1 {
		t.Errorf("Count = %d errors, %d warnings; want 2, 1", e, w)
	}
}

// TestSARIFValid: the sample log is valid SARIF 2.1.0 (the OASIS schema)
// and has what GitHub code scanning requires, with and without a base
// directory; an absolute file name inside the base is made relative to it.
func TestSARIFValid(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	r.Modules[0].Diagnostics[0].File = "/work/repo/mail/compose.yaml"
	r.Modules[0].Diagnostics[0].Related = []rules.Related{{File: "/elsewhere/x.yaml", Line: 2, Message: "the other"}}
	for _, base := range []string{"", "/work/repo"} {
		var b bytes.Buffer
		if err := WriteSARIF(&b, r, rules.All(), SARIFOptions{BaseDir: base}); err != nil {
			t.Fatal(err)
		}
		if err := v.SARIF(b.Bytes()); err != nil {
			t.Errorf("base %q: %v\n%s", base, err, b.String())
		}
		want := `"uri": "file:///work/repo/mail/compose.yaml"`
		if base != "" {
			want = `"uri": "mail/compose.yaml",`
		}
		if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), `"uri": "file:///elsewhere/x.yaml"`) {
			t.Errorf("base %q: want %s and the related location's file: URI:\n%s", base, want, b.String())
		}
	}
}
