package manifest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/sirupsen/logrus"
	"go.yaml.in/yaml/v3"
)

// emitScalars are strings whose form in YAML turns on one character:
// indicators first, inside and last, what YAML reads as another type,
// spaces, quotes, escapes, non-ASCII and long keys.
var emitScalars = []string{
	"", "a", "web", "/srv/x", "_x", "nginx:1.27", "a:b", "a: b", "a:", ":a", "a,b", "a, b", "a b", "a  b", " a", "a ",
	"true", "True", "TRUE", "false", "null", "Null", "NULL", "~", "yes", "no", "on", "off", "y", "n",
	"0", "1", "-1", "01", "0755", "1e3", "1.5", ".5", ".inf", "-.inf", ".nan", "+1", "0x1F", "0o17", "1:30", "2001-12-14",
	"-", "-a", "- a", "--", "---", "...", "?", "?a", "? a", "[a]", "a[b]", "{a}", "a{b}", "a}", "#a", "a#b", "a #b", "&a", "*a",
	"!a", "|a", ">a", "%a", "a%b", "@a", "a@b", "`a", "a`b", "'a", "a'b", "\"a", "a\"b", "a\\b", "a=b", "=", "a+b", "<<",
	"a\tb", "\ta", "é", "aé", "a\u2028b", "a\u00a0b", "\ufeffa", "a\x7fb", "##[x", "::x", "a/b/c.d-e_f", "$5 a month", "${X}",
	"443", "0", "00", "0755", "0x1F", "0X1f", "0b1", "0o7", "1e5", "1E5", "1e", "64m", "5s", "1m30s", "4768a8fe5951", "1_000",
	"12345678901234567890123", "10.13.13.0", "6.31", "6.", ".6", "1.2.", "1..2", "1.2.3.4.5", "1.e5", "0xg", "9a.b",
	"--x", "-g", "--", "---x", "-1", "-.5", "-x y", "--a=b", "-9", "./x", "../x", ".../x", "..", ".x", "./", "../", "./a b",
	"redis://u:p@h:6379/0", "http://x", "C:\\x", strings.Repeat("k", 128), strings.Repeat("k", 129), "x\n", "a\nb",
}

// TestEmitLikeYAML: emitDocument writes each scalar in every context,
// with every tag and style Encode uses, and the shapes around it, as
// yaml.v3 writes them, or declines.
func TestEmitLikeYAML(t *testing.T) {
	type variant struct {
		tag   string
		style yaml.Style
	}
	variants := []variant{{"!!str", 0}, {"!!str", yaml.DoubleQuotedStyle}, {"", 0}, {"!!int", 0}, {"!!bool", 0}, {"!!null", 0}, {"!!float", 0}}
	scalar := func(v variant, s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: v.tag, Style: v.style, Value: s}
	}
	key := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	mapping := func(style yaml.Style, c ...*yaml.Node) *yaml.Node {
		return &yaml.Node{Kind: yaml.MappingNode, Style: style, Content: c}
	}
	seq := func(style yaml.Style, c ...*yaml.Node) *yaml.Node {
		return &yaml.Node{Kind: yaml.SequenceNode, Style: style, Content: c}
	}
	shapes := map[string]func(n *yaml.Node) *yaml.Node{
		"block key": func(n *yaml.Node) *yaml.Node { return mapping(0, key("a"), mapping(0, n, key("v"))) },
		"block value": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), mapping(0, key("k"), n, key("z"), key("w")))
		},
		"block item": func(n *yaml.Node) *yaml.Node { return mapping(0, key("a"), seq(0, n, key("x"))) },
		"item mapping": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), seq(0, mapping(0, key("k"), n, key("s"), seq(0, n), key("m"), mapping(0, n, n))))
		},
		"flow key": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), seq(0, mapping(yaml.FlowStyle, n, key("v"), key("k"), key("v"))))
		},
		"flow value": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), seq(0, mapping(yaml.FlowStyle, key("k"), n, key("j"), n)))
		},
		"flow item": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), mapping(0, key("names"), seq(yaml.FlowStyle, n, n)))
		},
		"empty": func(n *yaml.Node) *yaml.Node {
			return mapping(0, key("a"), mapping(0), key("b"), seq(0), key("c"), seq(0, mapping(0)), key("d"), n)
		},
		"comments": func(n *yaml.Node) *yaml.Node {
			c := *n
			c.LineComment = "# a comment: é"
			m := mapping(0, key("a"), seq(0, mapping(0, key("directory"), &c, key("owner"), n)))
			m.HeadComment = "# Module manifest — edit the declarations"
			return m
		},
	}
	fast := 0
	for name, shape := range shapes {
		for _, v := range variants {
			for _, s := range emitScalars {
				got, ok, want, err := manifest.EmitNodes(shape(scalar(v, s)))
				if err != nil {
					continue // yaml.v3 cannot write it either
				}
				if ok {
					fast++
					if !bytes.Equal(got, want) {
						t.Errorf("%s, %s style %d, %q:\n--- emitDocument\n%s--- yaml.v3\n%s", name, v.tag, v.style, s, got, want)
					}
				}
			}
		}
	}
	if fast == 0 {
		t.Fatal("emitDocument wrote none of the documents")
	}
}

// TestEmitLikeYAMLModules: every manifest of the golden conversions, and
// of the corpus (C2M_CORPUS) converted with filled-in declarations, is
// written by emitDocument as yaml.v3 writes it.
func TestEmitLikeYAMLModules(t *testing.T) {
	var modules []*manifest.Module
	goldens, _ := filepath.Glob("../testdata/convert/*/want.txt")
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		_, text, ok := bytes.Cut(data, []byte("--- manifest\n"))
		if !ok {
			continue
		}
		text, _, _ = bytes.Cut(text, []byte("\n--- "))
		m, err := manifest.Decode(g, text)
		if err != nil {
			continue // a golden that shows a broken manifest
		}
		modules = append(modules, m)
	}
	if root := os.Getenv("C2M_CORPUS"); root != "" {
		logrus.SetOutput(io.Discard)
		projects, err := batch.Discover(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		for i, p := range projects {
			found, err := cli.NewProjectOptions(nil, cli.WithWorkingDirectory(p.Dir), cli.WithDefaultConfigPath)
			if err != nil || len(found.ConfigPaths) == 0 {
				continue
			}
			opts := convert.Options{ProjectDirectory: p.Dir, WorkingDirectory: p.Dir, Environ: []string{}}
			res, err := convert.Convert(context.Background(), opts)
			if err != nil {
				continue
			}
			if len(res.Skeleton) > 0 {
				filled, err := skeletontest.Fill(res.Skeleton)
				if err != nil {
					t.Fatal(err)
				}
				opts.DeclarationsFile = filepath.Join(tmp, fmt.Sprintf("d%d.yaml", i))
				if err := os.WriteFile(opts.DeclarationsFile, filled, 0o644); err != nil {
					t.Fatal(err)
				}
				if res, err = convert.Convert(context.Background(), opts); err != nil {
					t.Fatal(err)
				}
			}
			if res.Module != nil {
				modules = append(modules, res.Module)
			}
		}
	}
	fast := 0
	for _, m := range modules {
		got, ok, want, err := manifest.EmitBoth(m)
		if err != nil {
			t.Fatalf("%s: %v", m.Module, err)
		}
		if !ok {
			t.Logf("%s: written by yaml.v3", m.Module)
			continue
		}
		fast++
		if !bytes.Equal(got, want) {
			t.Errorf("%s: emitDocument and yaml.v3 differ:\n--- emitDocument\n%s--- yaml.v3\n%s", m.Module, got, want)
		}
	}
	names := make([]string, len(modules))
	for i, m := range modules {
		names[i] = m.Module
	}
	t.Logf("%d of %d manifests written by emitDocument: %s", fast, len(modules), strings.Join(names, " "))
	if fast == 0 {
		t.Fatal("emitDocument wrote none of the manifests")
	}
}
