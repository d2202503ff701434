// Package schematest validates documents against compose2manifest's JSON
// Schemas (package schema) and SARIF logs against the SARIF 2.1.0 schema
// and GitHub code scanning's requirements. Only tests use it.
package schematest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// sarifSchema is the OASIS SARIF 2.1.0 schema (testdata/README.md says
// where it comes from).
//
//go:embed testdata/sarif-schema-2.1.0.json
var sarifSchema []byte

const sarifURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// Validator holds the compiled schemas.
type Validator struct {
	schemas map[string]*jsonschema.Schema
}

// New compiles compose2manifest's schemas and the SARIF schema.
func New() (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) { return regexp.Compile(GoPattern(s)) })
	v := &Validator{schemas: map[string]*jsonschema.Schema{}}
	for _, name := range schema.Names() {
		data, err := schema.Get(name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %v", name, err)
		}
		if err := c.AddResource(schema.URL(name), doc); err != nil {
			return nil, err
		}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarifSchema))
	if err != nil {
		return nil, err
	}
	if err := c.AddResource(sarifURL, doc); err != nil {
		return nil, err
	}
	for _, name := range schema.Names() {
		if v.schemas[name], err = c.Compile(schema.URL(name)); err != nil {
			return nil, fmt.Errorf("schema %s: %v", name, err)
		}
	}
	if v.schemas["sarif"], err = c.Compile(sarifURL); err != nil {
		return nil, fmt.Errorf("SARIF schema: %v", err)
	}
	return v, nil
}

// GoPattern returns the JSON Schema pattern s, an ECMA-262 regular
// expression, in Go's syntax: an escape \uXXXX (which Go's regexp does not
// know) becomes \x{XXXX}; the rest of what the schemas write reads the
// same in both. The schemas are for every JSON Schema validator, most of
// which use ECMA-262's syntax, where Go's \x{…} is an error.
func GoPattern(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) && isHex(s[i+2:i+6]) {
			b.WriteString(`\x{` + s[i+2:i+6] + `}`)
			i += 5
			continue
		}
		b.WriteString(s[i : i+2])
		i++
	}
	return b.String()
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdefABCDEF") == ""
}

// JSON validates a JSON document against the schema called name
// (declarations, manifest, report, or sarif).
func (v *Validator) JSON(name string, data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return v.value(name, doc)
}

// YAML validates a YAML document, as the JSON value it decodes to, against
// the schema called name. A stream of more than one document is refused,
// as the readers refuse it: a JSON Schema describes one value, and the
// schemas' descriptions say the file is one document.
func (v *Validator) YAML(name string, data []byte) error {
	var val any
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&val); err != nil && err != io.EOF {
		return err
	}
	var more any
	if err := dec.Decode(&more); err != io.EOF {
		return fmt.Errorf("a second YAML document (or a bad one after the first): the file must be one document")
	}
	j, err := json.Marshal(val)
	if err != nil {
		return fmt.Errorf("as JSON: %v", err)
	}
	return v.JSON(name, j)
}

func (v *Validator) value(name string, doc any) error {
	s, ok := v.schemas[name]
	if !ok {
		return fmt.Errorf("no schema %q", name)
	}
	return s.Validate(doc)
}

// SARIF validates a SARIF log against the SARIF 2.1.0 schema and against
// what GitHub code scanning requires of an upload
// (docs.github.com, "SARIF support for code scanning"): a tool.driver with
// a name and a version; rules with an id, a shortDescription, a
// fullDescription and a helpUri; results with a ruleId naming a rule of
// the driver, a message text, and at least one location whose
// physicalLocation has an artifact URI relative to a uriBaseId (or an
// absolute file: URI), clean (no ./), and a region with a startLine of
// at least 1. What ranks and tracks the results is required too: each
// rule's properties tags, precision and security-severity (0.0 to 10.0),
// and each result's partialFingerprints, unique in the run.
func (v *Validator) SARIF(data []byte) error {
	if err := v.JSON("sarif", data); err != nil {
		return err
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string `json:"name"`
					Version string `json:"version"`
					Rules   []struct {
						ID               string                `json:"id"`
						ShortDescription struct{ Text string } `json:"shortDescription"`
						FullDescription  struct{ Text string } `json:"fullDescription"`
						HelpURI          string                `json:"helpUri"`
						Properties       struct {
							Tags             []string `json:"tags"`
							Precision        string   `json:"precision"`
							SecuritySeverity string   `json:"security-severity"`
						} `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID              string                `json:"ruleId"`
				RuleIndex           *int                  `json:"ruleIndex"`
				Message             struct{ Text string } `json:"message"`
				PartialFingerprints map[string]string     `json:"partialFingerprints"`
				Locations           []struct {
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
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return err
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if log.Version != "2.1.0" {
		bad("version %q, want 2.1.0", log.Version)
	}
	if len(log.Runs) == 0 {
		bad("no runs")
	}
	for ri, run := range log.Runs {
		d := run.Tool.Driver
		if d.Name == "" || d.Version == "" {
			bad("run %d: tool.driver name %q, version %q: want both", ri, d.Name, d.Version)
		}
		ids := map[string]int{}
		for i, r := range d.Rules {
			if r.ID == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.HelpURI == "" {
				bad("run %d: rule %d (%q): want id, shortDescription, fullDescription and helpUri", ri, i, r.ID)
			}
			if u, err := url.Parse(r.HelpURI); err != nil || !u.IsAbs() {
				bad("run %d: rule %q: helpUri %q is not an absolute URI", ri, r.ID, r.HelpURI)
			}
			ids[r.ID] = i
			p := r.Properties
			if sev, err := strconv.ParseFloat(p.SecuritySeverity, 64); len(p.Tags) == 0 || p.Precision == "" || err != nil || sev < 0 || sev > 10 {
				bad("run %d: rule %q: want properties tags, precision and a security-severity from 0.0 to 10.0: %+v", ri, r.ID, p)
			}
		}
		fingerprints := map[string]bool{}
		for i, res := range run.Results {
			where := fmt.Sprintf("run %d: result %d (%s)", ri, i, res.RuleID)
			idx, ok := ids[res.RuleID]
			if res.RuleID == "" || !ok {
				bad("%s: ruleId %q names no rule of the driver", where, res.RuleID)
			} else if res.RuleIndex != nil && *res.RuleIndex != idx {
				bad("%s: ruleIndex %d is not rule %q", where, *res.RuleIndex, res.RuleID)
			}
			if strings.TrimSpace(res.Message.Text) == "" {
				bad("%s: empty message", where)
			}
			if len(res.Locations) == 0 {
				bad("%s: no location", where)
			}
			if len(res.PartialFingerprints) == 0 {
				bad("%s: no partialFingerprints", where)
			}
			for k, fp := range res.PartialFingerprints {
				if fingerprints[k+"="+fp] {
					bad("%s: partialFingerprints %s %q also of another result", where, k, fp)
				}
				fingerprints[k+"="+fp] = true
			}
			for _, loc := range res.Locations {
				pl := loc.PhysicalLocation
				u, err := url.Parse(pl.ArtifactLocation.URI)
				switch {
				case err != nil || pl.ArtifactLocation.URI == "":
					bad("%s: artifact URI %q: %v", where, pl.ArtifactLocation.URI, err)
				case u.IsAbs() && u.Scheme != "file":
					bad("%s: artifact URI %q: want a relative URI or a file: URI", where, u)
				case !u.IsAbs() && (pl.ArtifactLocation.URIBaseID == "" || strings.HasPrefix(u.Path, "/")):
					bad("%s: relative artifact URI %q without a uriBaseId", where, u)
				case !u.IsAbs() && path.Clean(u.Path) != u.Path:
					bad("%s: artifact URI %q is not clean (./ or ..): code scanning matches it to no file", where, u)
				}
				if pl.Region == nil || pl.Region.StartLine < 1 {
					bad("%s: want region.startLine >= 1", where)
				}
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("not what GitHub code scanning accepts:\n\t%s", strings.Join(problems, "\n\t"))
	}
	return nil
}
