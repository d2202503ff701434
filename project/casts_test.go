package project

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/interpolation"
	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/tree"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"
)

// loadFull loads the project opts names with compose-go's options and
// every interpolation cast, as docker compose does. It returns the casts
// compose-go has, and those it applied.
func loadFull(t *testing.T, opts Options) (p *types.Project, table map[tree.Path]interpolation.Cast, used map[tree.Path]bool, err error) {
	t.Helper()
	in, err := resolveInputs(opts, "")
	if err != nil {
		t.Fatal(err)
	}
	used = map[tree.Path]bool{}
	record := func(o *loader.Options) {
		if o.Interpolate == nil {
			return // reading the files, not loading them
		}
		table = o.Interpolate.TypeCastMapping
		wrapped := make(map[tree.Path]interpolation.Cast, len(table))
		for pattern, cast := range table {
			wrapped[pattern] = func(v string) (any, error) {
				used[pattern] = true
				return cast(v)
			}
		}
		in := *o.Interpolate
		in.TypeCastMapping = wrapped
		o.Interpolate = &in
	}
	po, err := in.projectOptions(opts, cli.WithLoadOptions(record))
	if err != nil {
		t.Fatal(err)
	}
	p, err = po.LoadProject(context.Background())
	return p, table, used, err
}

// sameAsFull fails t unless the casts castsFor keeps include every cast
// compose-go applies to the project with all of them, and Load gives the
// project compose-go gives with every cast. It returns compose-go's
// error, if any.
func sameAsFull(t *testing.T, opts Options) error {
	t.Helper()
	want, table, used, wantErr := loadFull(t, opts)
	got, err := Load(context.Background(), opts)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("Load error %v, compose-go with every cast: %v", err, wantErr)
	}
	every := opts
	every.everyCast = true
	if _, everyErr := Load(context.Background(), every); err != nil && (everyErr == nil || everyErr.Error() != err.Error()) {
		// A failed load is not done again with every cast: its error
		// must be the one every cast gives.
		t.Errorf("Load error %q, with every cast %v", err, everyErr)
	}
	if got != nil && got.raw != nil && table != nil {
		o := &loader.Options{Interpolate: &interpolation.Options{TypeCastMapping: table}}
		castsFor(got.raw)(o)
		for pattern := range used {
			if _, ok := o.Interpolate.TypeCastMapping[pattern]; !ok {
				t.Errorf("compose-go casts %s, which castsFor leaves out", pattern)
			}
		}
	}
	if wantErr != nil {
		return wantErr
	}
	if !reflect.DeepEqual(got.Compose, want) {
		for name, svc := range want.AllServices() {
			if g, ok := got.Compose.AllServices()[name]; !ok || !reflect.DeepEqual(g, svc) {
				t.Errorf("service %q differs:\n got %#v\nwant %#v", name, g, svc)
			}
		}
		if !reflect.DeepEqual(got.Compose.AllJobs(), want.AllJobs()) {
			t.Errorf("jobs differ:\n got %#v\nwant %#v", got.Compose.AllJobs(), want.AllJobs())
		}
		t.Errorf("the project differs from compose-go's with every cast")
	}
	return nil
}

// TestCastsChangeNothing: leaving out the casts that name a key no
// compose file writes loads every project as compose-go does with all of
// them, whether the casted values are written in the compose file, an
// override, an included file, an extends.file, under a key written as an
// alias, an escape or through a merge key, in a job or a pre_start hook.
func TestCastsChangeNothing(t *testing.T) {
	env := []string{"CPUS=1.5", "RO=yes", "N=64", "R=3", "P=no", "T=on"}
	tests := []struct {
		name  string
		files map[string]string
	}{
		{"plain", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    cpus: ${CPUS}\n    read_only: ${RO}\n    healthcheck:\n      test: [CMD, 'true']\n      retries: ${R}\n    ports:\n      - target: ${N}\n        published: '8080'\n    volumes:\n      - type: volume\n        source: data\n        target: /data\n        read_only: ${RO}\n        volume:\n          nocopy: ${RO}\nvolumes:\n  data:\n    external: ${P}\nnetworks:\n  default:\n    internal: ${P}\n",
		}},
		{"override", map[string]string{
			"compose.yaml":          "services:\n  app:\n    image: alpine:3\n",
			"compose.override.yaml": "services:\n  app:\n    privileged: ${P}\n    oom_score_adj: ${N}\n    ulimits:\n      nproc: ${N}\n      nofile:\n        soft: ${N}\n        hard: ${N}\n",
		}},
		{"include", map[string]string{
			"compose.yaml":   "include:\n  - inc/more.yaml\nservices:\n  app:\n    image: alpine:3\n",
			"inc/more.yaml":  "services:\n  worker:\n    image: busybox:1\n    tty: ${T}\n    stdin_open: ${RO}\n    deploy:\n      replicas: ${R}\n      restart_policy:\n        max_attempts: ${R}\n",
			"inc/.env":       "R=5\n",
			"inc/other.yaml": "services: {}\n",
		}},
		{"extends file", map[string]string{
			"compose.yaml":     "services:\n  app:\n    extends:\n      file: base/common.yaml\n      service: base\n  db:\n    image: postgres:16\n",
			"base/common.yaml": "services:\n  base:\n    image: alpine:3\n    pids_limit: ${N}\n    init: ${RO}\n    depends_on:\n      db:\n        condition: service_started\n        required: ${P}\n  db:\n    image: postgres:16\n",
		}},
		{"jobs and pre_start", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    pre_start:\n      - image: busybox:1\n        command: ['true']\n        cpus: ${CPUS}\n        read_only: ${RO}\n        user: root\njobs:\n  migrate:\n    image: alpine:3\n    cpus: ${CPUS}\n    tty: ${T}\n    triggers:\n      manual: true\n",
		}},
		{"included jobs", map[string]string{
			"compose.yaml":  "include:\n  - inc/jobs.yaml\nservices:\n  app:\n    image: alpine:3\n",
			"inc/jobs.yaml": "services:\n  side:\n    image: alpine:3\n    pre_start:\n      - image: busybox:1\n        cpu_count: ${N}\njobs:\n  migrate:\n    image: alpine:3\n    cpu_shares: ${N}\n    triggers:\n      manual: true\n",
		}},
		{"alias key", map[string]string{
			"compose.yaml": "x-name: &k cpus\nservices:\n  app:\n    image: alpine:3\n    ? *k\n    : ${CPUS}\n",
		}},
		{"escaped key", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    \"\\x63pus\": ${CPUS}\n    'read_only': ${RO}\n",
		}},
		{"merge key", map[string]string{
			"compose.yaml": "x-base: &base\n  stdin_open: ${RO}\n  oom_kill_disable: ${RO}\n  cpu_period: ${N}\nservices:\n  app:\n    <<: *base\n    image: alpine:3\n",
		}},
		{"profiles", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n  off:\n    image: alpine:3\n    profiles: [later]\n    cpu_quota: ${N}\n    scale: ${R}\n",
		}},
		{"bad cast", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    cpus: lots\n",
		}},
		// Loads that fail are not done again: each fails as with every cast.
		{"bad cast in an include", map[string]string{
			"compose.yaml":  "include:\n  - inc/more.yaml\nservices:\n  app:\n    image: alpine:3\n    cpus: ${CPUS}\n",
			"inc/more.yaml": "services:\n  worker:\n    image: busybox:1\n    replicas: many\n",
		}},
		{"bad cast: an unparsable include", map[string]string{
			"compose.yaml":  "include:\n  - inc/more.yaml\nservices:\n  app:\n    image: alpine:3\n    cpus: ${CPUS}\n",
			"inc/more.yaml": "services:\n  worker: [\n",
		}},
		{"bad cast: a required variable", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:${TAG:?set TAG}\n    cpus: ${CPUS}\n    read_only: ${RO}\n",
		}},
		{"bad cast: an undefined volume", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    cpus: ${CPUS}\n    volumes: [missing:/data]\n  db:\n    image: postgres:16\n    volumes: [other:/data]\n",
		}},
		{"bad cast: a port", map[string]string{
			"compose.yaml": "services:\n  app:\n    image: alpine:3\n    oom_score_adj: ${N}\n    ports: ['abc:xyz']\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			err := sameAsFull(t, Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: env})
			if (err != nil) != strings.HasPrefix(tt.name, "bad cast") {
				t.Errorf("compose-go: %v", err)
			}
		})
	}
}

// TestCastsChangeNothingCorpus: every corpus project (C2M_CORPUS) loads
// as compose-go loads it with every cast.
func TestCastsChangeNothingCorpus(t *testing.T) {
	root := os.Getenv("C2M_CORPUS")
	if root == "" {
		t.Skip("C2M_CORPUS is not set")
	}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		for _, name := range cli.DefaultFileNames {
			if _, err := os.Stat(filepath.Join(p, name)); err == nil {
				dirs = append(dirs, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 30 {
		t.Fatalf("found %d corpus projects, want at least 30", len(dirs))
	}
	loaded := 0
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			// Some refuse to load, alike; those compare errors only.
			if sameAsFull(t, Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}}) == nil {
				loaded++
			}
		})
	}
	if loaded < 20 {
		t.Errorf("only %d of %d corpus projects loaded: the comparison of loaded projects checked too little", loaded, len(dirs))
	}
}

// TestCastsFor: castsFor keeps the casts whose named segments are all
// written keys, wildcards aside, and nothing else; it leaves loader
// options without casts alone.
func TestCastsFor(t *testing.T) {
	cast := func(string) (any, error) { return nil, nil }
	table := map[tree.Path]interpolation.Cast{
		"services.*.cpus":                 cast,
		"services.*.volumes.[].read_only": cast,
		"jobs.*.cpus":                     cast,
		"services.*.pre_start.*.cpus":     cast,
		"networks.*.external":             cast,
		"services.*.a👻b":                  cast, // a key with a dot in it
	}
	ix := &rawIndex{}
	root := parseNode(t, "services:\n  app:\n    cpus: 1\n    volumes:\n      - read_only: true\n    a.b: 1\n")
	ix.files = append(ix.files, &rawFile{root: root})
	o := &loader.Options{Interpolate: &interpolation.Options{TypeCastMapping: table}}
	castsFor(ix)(o)
	var got []string
	for p := range o.Interpolate.TypeCastMapping {
		got = append(got, string(p))
	}
	want := []string{"services.*.a👻b", "services.*.cpus", "services.*.volumes.[].read_only"}
	if !reflect.DeepEqual(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("kept %q, want %q", slices.Sorted(slices.Values(got)), want)
	}
	if len(table) != 6 {
		t.Errorf("castsFor changed compose-go's table: %d casts left", len(table))
	}
	empty := &loader.Options{}
	castsFor(ix)(empty)
	if empty.Interpolate != nil {
		t.Errorf("castsFor set casts where there were none")
	}
}

// parseNode returns the root node of one YAML document.
func parseNode(t *testing.T, doc string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	return n.Content[0]
}

// TestLoadPrunesCasts: compose-go loads with the casts castsFor keeps,
// not its whole table (the casts were once handed to options loadCompose
// no longer reads, and every cast was matched again).
func TestLoadPrunesCasts(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  web:\n    image: nginx:1\n    read_only: true\n"})
	var got map[tree.Path]interpolation.Cast
	_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}, onLoad: func(o *loader.Options) {
		got = o.Interpolate.TypeCastMapping
	}})
	if err != nil {
		t.Fatal(err)
	}
	full := loader.ToOptions(&types.ConfigDetails{}, nil).Interpolate.TypeCastMapping
	if len(got) == 0 || len(got) >= len(full) {
		t.Fatalf("compose-go loads with %d casts of its %d, want castsFor's few", len(got), len(full))
	}
	for p := range got {
		if strings.HasPrefix(string(p), "jobs") {
			t.Errorf("cast %s kept for a project without jobs", p)
		}
	}
}
