package oracle

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/sirupsen/logrus"
	"go.yaml.in/yaml/v3"
)

// TestMain silences compose-go's logrus warnings, which Convert reports
// as diagnostics (and the command silences too).
func TestMain(m *testing.M) {
	logrus.SetOutput(io.Discard)
	os.Exit(m.Run())
}

const (
	// corpusEnv points the test at the shared corpus (.ci/run sets it).
	corpusEnv = "C2M_CORPUS"
	// composeEnv names the docker compose binary, the oracle (.ci/run
	// builds it with ../shared/tools/docker-compose).
	composeEnv = "C2M_DOCKER_COMPOSE"
	// composeTimeout bounds one run of docker compose config.
	composeTimeout = 30 * time.Second
	// hostDir and volumeRoot are where the conversion places relative binds
	// and volumes, as internal/skeletontest fills them.
	hostDir    = "/opt/placeholder"
	volumeRoot = "/srv"
)

// knownDifferences are differences between docker compose's reading and
// ours that are understood and waiting for a fix in the converter, keyed
// by "PROJECT/SERVICE/ASPECT" (PROJECT is the compose file relative to the
// corpus, or testdata/… for the fixtures; ASPECT one of services, image,
// volumes, environment, ports, variables, refusal). Each still fails the test, with its reason in the message, so
// none passes unnoticed; an entry that no longer matches a difference
// fails too, so the list shrinks with the fixes.
var knownDifferences = map[string]string{}

// dcProject is what docker compose config --format json prints, as far as
// the comparison needs it.
type dcProject struct {
	Name     string               `json:"name"`
	Services map[string]dcService `json:"services"`
	// Jobs are the containers docker compose runs to completion when
	// triggered (compose-go v2.15 and later).
	Jobs    map[string]json.RawMessage `json:"jobs"`
	Configs map[string]struct {
		File string `json:"file"`
	} `json:"configs"`
	Volumes map[string]struct {
		Driver     string            `json:"driver"`
		DriverOpts map[string]string `json:"driver_opts"`
		External   bool              `json:"external"`
	} `json:"volumes"`
	// Networks are the networks docker compose would create or join,
	// each attribute as it resolves it.
	Networks map[string]map[string]json.RawMessage `json:"networks"`
}

// tmpfsVolume returns the mount options of a top-level volume docker's
// local driver mounts as a tmpfs, and whether it is one.
func (p *dcProject) tmpfsVolume(name string) (string, bool) {
	v, ok := p.Volumes[name]
	if !ok || v.External || (v.Driver != "" && v.Driver != "local") || v.DriverOpts["type"] != "tmpfs" {
		return "", false
	}
	return v.DriverOpts["o"], true
}

type dcService struct {
	Image       string             `json:"image"`
	Build       json.RawMessage    `json:"build"`
	Environment map[string]*string `json:"environment"`
	DependsOn   map[string]any     `json:"depends_on"`
	Ports       []dcPort           `json:"ports"`
	Volumes     []dcVolume         `json:"volumes"`
	Tmpfs       []string           `json:"tmpfs"`
	Configs     []dcFileRef        `json:"configs"`
	Secrets     []dcFileRef        `json:"secrets"`
}

// dcFileRef is a service's secret or config; mode is quoted octal
// ("0440"), as compose-go's FileMode writes it.
type dcFileRef struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Mode   string `json:"mode"`
}

type dcPort struct {
	Name        string `json:"name"`
	Mode        string `json:"mode"`
	HostIP      string `json:"host_ip"`
	Target      uint32 `json:"target"`
	Published   string `json:"published"`
	Protocol    string `json:"protocol"`
	AppProtocol string `json:"app_protocol"`
}

type dcVolume struct {
	Type     string `json:"type"`
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"read_only"`
	Tmpfs    *struct {
		Size string `json:"size"`
		Mode uint32 `json:"mode"`
	} `json:"tmpfs"`
}

// TestDockerCompose converts every project of the shared corpus (every
// profile enabled, the refusal's skeleton filled with placeholders) and
// compares each container with the service docker compose resolves for
// the same files, environment and profiles: the same services, images,
// environment and published ports, and every volume target mounted or
// named by a diagnostic. Where docker compose refuses a project, the
// conversion must refuse or fail too.
func TestDockerCompose(t *testing.T) {
	root := os.Getenv(corpusEnv)
	if root == "" {
		t.Skipf("%s is not set; .ci/run sets it to the shared corpus", corpusEnv)
	}
	oracle(t, composeBinary(t), root, "")
}

// TestDockerComposeFixtures does the same for the small projects of
// testdata/, each written to hold one reading where the converter's and
// docker compose's could part: ~ sources, include and extends from other
// folders, env_file, "$$", port ranges and addresses, volume options.
func TestDockerComposeFixtures(t *testing.T) {
	oracle(t, composeBinary(t), "testdata", "testdata/")
}

// TestDockerComposeStdin: a compose file read from standard input (-f -,
// in its folder, which is then the project directory) converts to what
// docker compose reads from it.
func TestDockerComposeStdin(t *testing.T) {
	bin := composeBinary(t)
	dir, err := filepath.Abs(filepath.Join("testdata", "stdin"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	d := &differ{t: t, project: "stdin", seen: map[string]bool{}, n: &tally{}}
	dc, _, dcErr := composeConfig(t, bin, "-", dir, env, data)
	if dcErr != nil {
		t.Fatalf("docker compose refuses -f -: %v", dcErr)
	}
	res, relocated, convErr := convertFilled(t, "-", dir, env, data)
	m := res.Module
	if m == nil {
		m = res.Candidate
	}
	if m == nil {
		t.Fatalf("the conversion of -f - fails: %v%s", convErr, diagSummary(res.Diagnostics))
	}
	compare(d, dc, m, res.Diagnostics, res.Suggestions.Uncarried, dir, dir, env, relocated)
	if d.n.services == 0 || d.n.mounts == 0 {
		t.Errorf("compared %d services and %d mounts; want the fixture's", d.n.services, d.n.mounts)
	}
	if m.Sources[0].File != "-" {
		t.Errorf("the manifest names its compose file %q, want -", m.Sources[0].File)
	}
}

// TestSameComposeGo: we load compose files with the very compose-go
// release the docker compose binary was built with (its build info says
// which). Releases differ in what they accept and how they read it:
// v2.16.2 knows a service's umask: and a network's
// use_service_name_alias:, which docker compose v5.6.0 (v2.16.1) refuses.
func TestSameComposeGo(t *testing.T) {
	bin := composeBinary(t)
	theirs, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatalf("reading %s's build info: %v", bin, err)
	}
	// A test binary's build info lists no modules; the go command
	// that runs the test knows the build list.
	out, err := exec.Command("go", "list", "-m", "-f", "{{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}", "github.com/compose-spec/compose-go/v2").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	version := func(bi *debug.BuildInfo) string {
		for _, m := range bi.Deps {
			if m.Path == "github.com/compose-spec/compose-go/v2" {
				if m.Replace != nil {
					return m.Replace.Version
				}
				return m.Version
			}
		}
		return ""
	}
	want, got := version(theirs), strings.TrimSpace(string(out))
	if want == "" || got == "" {
		t.Fatalf("compose-go: docker compose has %q, we have %q", want, got)
	}
	if got != want {
		t.Errorf("we load with compose-go %s, docker compose %s (%s) with %s: go get github.com/compose-spec/compose-go/v2@%s", got, theirs.Main.Version, bin, want, want)
	}
}

// composeBinary returns the docker compose binary C2M_DOCKER_COMPOSE
// names, or skips the test.
func composeBinary(t *testing.T) string {
	bin := os.Getenv(composeEnv)
	if fi, err := os.Stat(bin); bin == "" || err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Skipf("%s=%q does not name an executable; build one with ../shared/tools/docker-compose", composeEnv, bin)
	}
	return bin
}

// oracle compares the conversion of every compose file under root with
// docker compose's reading of it. prefix starts the project's name in
// test names and knownDifferences keys.
func oracle(t *testing.T, bin, root, prefix string) {
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	files := corpusProjects(t, root)
	if len(files) == 0 {
		t.Fatalf("no compose files under %s", root)
	}
	// One clean environment for both readers: interpolation sees the same
	// variables, and HOME is a folder of the test's own.
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	seen := map[string]bool{}
	var n tally
	var compared, converted, bothRefuse, dcRefuses int
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		name := prefix + filepath.ToSlash(rel)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			d := &differ{t: t, project: name, seen: seen, n: &n}
			dir := filepath.Dir(file)
			dc, warnings, dcErr := composeConfig(t, bin, file, dir, env, nil)
			res, relocated, convErr := convertFilled(t, file, dir, env, nil)
			compareUnset(d, warnings, res.Diagnostics)
			if dcErr != nil {
				dcRefuses++
				// A required variable without a value: docker compose
				// prints the author's message, and so must the error.
				if m := requiredRE.FindString(dcErr.Error()); m != "" && (convErr == nil || !strings.Contains(convErr.Error(), m)) {
					d.errorf("", "refusal", "docker compose says %q; the conversion's error does not: %v", m, convErr)
				}
				if res.Status == convert.Converted {
					d.errorf("", "refusal", "docker compose refuses the project, the conversion succeeds: %v", dcErr)
					return
				}
				bothRefuse++
				// A fixture's load error names its file and line, as
				// docker compose's often does not.
				if prefix != "" && convErr != nil && !positionRE.MatchString(convErr.Error()) {
					d.errorf("", "refusal", "the conversion's error names no file and line: %v", convErr)
				}
				t.Logf("docker compose refuses (%v); the conversion %s too", dcErr, res.Status)
				return
			}
			m := res.Module
			if m == nil {
				m = res.Candidate
			}
			if m == nil {
				d.errorf("", "refusal", "docker compose resolves the project, the conversion fails: %v%s", convErr, diagSummary(res.Diagnostics))
				return
			}
			compared++
			if res.Status == convert.Converted {
				converted++
			}
			compare(d, dc, m, res.Diagnostics, res.Suggestions.Uncarried, dir, root, env, relocated)
		})
	}
	for key, why := range knownDifferences {
		if strings.HasPrefix(key, "testdata/") == (prefix != "") && !seen[key] {
			t.Errorf("knownDifferences[%q] (%s) matches no difference any more: remove it", key, why)
		}
	}
	t.Logf("%d compose files; %d compared with docker compose (%d converted, %d refused: their candidate module compared); docker compose refuses %d, and the conversion refuses or fails %d of them",
		len(files), compared, converted, compared-converted, dcRefuses, bothRefuse)
	t.Logf("compared: %d services, %d images, %d volume targets mounted and %d named by a diagnostic, %d environment values and %d left out with C2M014, %d ports, %d secret and config modes",
		n.services, n.images, n.mounts, n.namedMounts, n.env, n.leftOutEnv, n.ports, n.modes)
}

// differ reports differences as test errors, naming the project, the
// service and the aspect, with the reason of a known difference.
type differ struct {
	t       *testing.T
	project string
	seen    map[string]bool
	n       *tally
}

// tally counts what was compared, so the log shows the comparison is not
// vacuous.
type tally struct {
	services, images, mounts, namedMounts, env, leftOutEnv, ports, modes int
}

func (d *differ) errorf(service, aspect, format string, args ...any) {
	d.t.Helper()
	key := d.project + "/" + service + "/" + aspect
	msg := fmt.Sprintf(format, args...)
	where := d.project
	if service != "" {
		where += ": service " + service
	}
	if why, ok := knownDifferences[key]; ok {
		d.seen[key] = true
		d.t.Errorf("%s: %s: %s (known difference %q: %s)", where, aspect, msg, key, why)
		return
	}
	d.t.Errorf("%s: %s differs from docker compose: %s", where, aspect, msg)
}

// composeConfig runs docker compose config on one compose file with every
// profile enabled, in a clean environment and with a bounded time. Its
// error is docker compose's refusal; a failure to run it at all is fatal.
// It also returns what docker compose printed on stderr, its warnings.
// With stdin, the file is that, read with -f - in dir, which is then the
// project directory by default.
func composeConfig(t *testing.T, bin, file, dir string, env []string, stdin []byte) (*dcProject, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), composeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-f", file, "--project-directory", dir, "--profile", "*", "config", "--format", "json")
	if stdin != nil {
		cmd = exec.CommandContext(ctx, bin, "-f", "-", "--profile", "*", "config", "--format", "json")
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("docker compose config did not finish within %s", composeTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil, stderr.String(), fmt.Errorf("exit %d: %s", exit.ExitCode(), lastLine(stderr.String()))
	}
	if err != nil {
		t.Fatalf("docker compose config: %v", err)
	}
	var p dcProject
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
		t.Fatalf("docker compose config printed no JSON: %v\n%s", err, stdout.String())
	}
	return &p, stderr.String(), nil
}

// convertFilled converts the project as the corpus test does (--strict,
// every profile) and, when it is refused with a skeleton, again with the
// skeleton filled in by internal/skeletontest. relocated maps each bind
// source the filled skeleton gives a path of its own (a source the module
// may not own where it is, a ~ source) to that path: its data moves there.
// With stdin, file is "-" and stdin its content, read in dir.
func convertFilled(t *testing.T, file, dir string, env []string, stdin []byte) (res *convert.Result, relocated map[string]string, err error) {
	t.Helper()
	opts := convert.Options{
		ConfigFiles:          []string{file},
		ProjectDirectory:     dir,
		WorkingDirectory:     dir,
		Profiles:             []string{"*"},
		Environ:              env,
		Strict:               true,
		HostProjectDirectory: hostDir,
		VolumeRoot:           volumeRoot,
	}
	if stdin != nil {
		opts.ProjectDirectory = "" // the working directory, as docker compose takes it for -f -
		opts.Stdin = bytes.NewReader(stdin)
	}
	res, err = convert.Convert(context.Background(), opts)
	if res.Status != convert.Refused || len(res.Skeleton) == 0 {
		return res, nil, err
	}
	filled, ferr := skeletontest.Fill(res.Skeleton)
	if ferr != nil {
		t.Fatalf("filling the skeleton: %v\n%s", ferr, res.Skeleton)
	}
	var decl struct {
		Binds map[string]struct{ Path string }
	}
	if err := yaml.Unmarshal(filled, &decl); err != nil {
		t.Fatalf("the filled skeleton: %v", err)
	}
	relocated = map[string]string{}
	for k, e := range decl.Binds {
		if strings.HasPrefix(k, "/") && e.Path != "" {
			relocated[k] = e.Path
		}
	}
	opts.Declarations = &convert.Declarations{Path: filepath.Join(t.TempDir(), convert.DeclarationsFile), Data: filled}
	if stdin != nil {
		opts.Stdin = bytes.NewReader(stdin) // read again, as the first conversion read it
	}
	res, err = convert.Convert(context.Background(), opts)
	return res, relocated, err
}

// positionRE matches an error that names a compose file and line, at its
// start or on a line of its own ("compose.yaml:6: …").
var positionRE = regexp.MustCompile(`(?m)^\s*\S+\.ya?ml:\d+: `)

// requiredRE matches docker compose's error for a required variable
// without a value, the author's message included.
var requiredRE = regexp.MustCompile(`required variable \S+ is missing a value(: .*)?$`)

// unsetRE matches docker compose's warning about an unset variable.
var unsetRE = regexp.MustCompile(`The \\"([^"\\]+)\\" variable is not set\. Defaulting to a blank string\.`)

// compareUnset: every variable docker compose warns is unset, the
// conversion reports (C2M014), whether the project loads or not.
func compareUnset(d *differ, stderr string, diags []rules.Diagnostic) {
	seen := map[string]bool{}
	for _, m := range unsetRE.FindAllStringSubmatch(stderr, -1) {
		name := m[1]
		if seen[name] {
			continue
		}
		seen[name] = true
		found := false
		for _, dg := range diags {
			found = found || dg.Rule == "C2M014" && containsWord(dg.Message, name)
		}
		if !found {
			d.errorf("", "variables", "docker compose warns that %s is not set; no C2M014 names it", name)
		}
	}
}

// compare holds the module against docker compose's reading.
func compare(d *differ, dc *dcProject, m *manifest.Module, diags []rules.Diagnostic, uncarried []placement.Field, dir, root string, env []string, relocated map[string]string) {
	containers := map[string]*manifest.Container{}
	index := map[string]int{}
	for i, r := range m.Containers() {
		containers[r.Container.Name] = r.Container
		index[r.Container.Name] = i
	}
	for _, name := range sortedKeys(dc.Services) {
		svc := dc.Services[name]
		ct, ok := containers[name]
		if !ok {
			if !named(diags, name, "C2M019") {
				d.errorf(name, "services", "docker compose runs it; the manifest has no container for it and no C2M019 says why")
			}
			continue
		}
		d.n.services++
		compareImage(d, name, svc, ct)
		compareVolumes(d, name, svc, dc, ct, diags, dir, root, env, relocated)
		compareEnvironment(d, name, svc, ct, diags)
		comparePorts(d, name, svc, ct)
		compareFileRefs(d, name, "secret", svc.Secrets, ct.Secrets)
		compareFileRefs(d, name, "config", svc.Configs, ct.Configs)
		// docker compose starts a service after what it depends on
		// (depends_on, with links, volumes_from and service: namespaces
		// folded in); the host applies containers in the order written.
		for _, dep := range sortedKeys(svc.DependsOn) {
			if i, ok := index[dep]; ok && i > index[name] {
				d.errorf(name, "order", "docker compose starts it after %s; the manifest writes it before", dep)
			}
		}
	}
	for _, name := range sortedKeys(containers) {
		if _, ok := dc.Services[name]; !ok {
			d.errorf(name, "services", "the manifest has a container docker compose does not run")
		}
	}
	compareNetworks(d, dc, uncarried)
	// The mesh runs no jobs: each one docker compose would run is left
	// behind knowingly (acknowledged, as the filled skeleton does) or a
	// C2M007 finding of its own.
	for _, name := range sortedKeys(dc.Jobs) {
		found := false
		for _, x := range diags {
			found = found || (x.Rule == "C2M007" && strings.HasPrefix(x.Message, "job "+name+" is not carried"))
		}
		for _, f := range uncarried {
			found = found || (f.Section == "jobs" && f.Entry == name && f.Acknowledged)
		}
		if !found {
			d.errorf(name, "services", "docker compose runs job %s; the manifest leaves it behind and neither a C2M007 nor an acknowledgement says so", name)
		}
	}
}

// compareNetworks holds the conversion to what docker compose makes of
// each top-level network: the manifest carries none of a network's
// attributes, so each one docker compose resolves (external, driver,
// ipam, …) must be a C2M007 field, reported or acknowledged. The name
// docker compose gives a network of its own (PROJECT_KEY) is written by
// nobody, and the name of a legacy external: {name: X} comes with the
// external field reported.
func compareNetworks(d *differ, dc *dcProject, uncarried []placement.Field) {
	reported := func(network, field string) bool {
		return slices.ContainsFunc(uncarried, func(f placement.Field) bool {
			return f.Section == "networks" && f.Entry == network && f.Name == field
		})
	}
	for _, name := range sortedKeys(dc.Networks) {
		attrs := dc.Networks[name]
		for _, k := range sortedKeys(attrs) {
			v := strings.TrimSpace(string(attrs[k]))
			switch {
			case v == "{}" || v == "null" || v == "false" || v == `""`:
				continue // written by docker compose as a default
			case k == "name" && (v == strconv.Quote(dc.Name+"_"+name) || reported(name, "external")):
				continue
			}
			if !reported(name, k) {
				d.errorf("networks."+name, "networks", "docker compose gives network %s %s: %s; the manifest does not carry it and no C2M007 says so", name, k, v)
			}
		}
	}
}

func compareImage(d *differ, name string, svc dcService, ct *manifest.Container) {
	// A service with build: and no image has none in docker compose's
	// view (it builds PROJECT-SERVICE); the manifest's comes from the
	// declarations' images: or C2M016 refuses it.
	if svc.Image == "" && len(svc.Build) > 0 {
		return
	}
	d.n.images++
	if want := unescape(svc.Image); ct.Image != want {
		d.errorf(name, "image", "docker compose %q, manifest %q", want, ct.Image)
	}
}

func compareVolumes(d *differ, name string, svc dcService, dc *dcProject, ct *manifest.Container, diags []rules.Diagnostic, dir, root string, env []string, relocated map[string]string) {
	mounted := map[string]manifest.Volume{}
	for _, v := range ct.Volumes {
		mounted[path.Clean(v.Target)] = v
	}
	tmpfs := map[string]bool{}
	tmpfsOf := map[string]manifest.Tmpfs{}
	for _, v := range ct.Tmpfs {
		tmpfs[path.Clean(v.Target)] = true
		tmpfsOf[path.Clean(v.Target)] = v
	}
	expected := map[string]bool{}
	home := ""
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = h
		}
	}
	for _, v := range svc.Volumes {
		target := path.Clean(unescape(v.Target))
		if v.Type == "tmpfs" {
			if !tmpfs[target] && !namesTarget(diags, name, target) {
				d.errorf(name, "volumes", "tmpfs %s: not in the container's tmpfs and no diagnostic names it", target)
			}
			if got, ok := tmpfsOf[target]; ok && v.Tmpfs != nil {
				// The mode docker compose applies, as the manifest's
				// quoted octal, and the size in bytes.
				if want := fmt.Sprintf("%o", v.Tmpfs.Mode); v.Tmpfs.Mode != 0 && got.Mode != want {
					d.errorf(name, "volumes", "tmpfs %s: mode %s (octal) in docker compose, %q in the manifest", target, want, got.Mode)
				}
				if v.Tmpfs.Size != "" && v.Tmpfs.Size != "0" && got.Size != v.Tmpfs.Size {
					d.errorf(name, "volumes", "tmpfs %s: size %s in docker compose, %q in the manifest", target, v.Tmpfs.Size, got.Size)
				}
			}
			continue
		}
		if o, ok := dc.tmpfsVolume(v.Source); ok && v.Type == "volume" {
			// The local driver mounts it as a tmpfs with the options of o.
			got, mounted := tmpfsOf[target]
			switch {
			case !mounted && !namesTarget(diags, name, target):
				d.errorf(name, "volumes", "tmpfs volume %s at %s: not in the container's tmpfs and no diagnostic names it", v.Source, target)
			case mounted:
				d.n.mounts++
				for _, opt := range strings.Split(o, ",") {
					k, val, _ := strings.Cut(opt, "=")
					if (k == "size" && got.Size != val) || (k == "mode" && got.Mode != val) {
						d.errorf(name, "volumes", "tmpfs volume %s at %s: %s in docker compose, manifest size %q mode %q", v.Source, target, opt, got.Size, got.Mode)
					}
				}
			}
			continue
		}
		expected[target] = true
		got, ok := mounted[target]
		if !ok {
			if !namesTarget(diags, name, target) {
				d.errorf(name, "volumes", "%s %s → %s: not mounted in the container and no diagnostic names it", v.Type, v.Source, target)
			}
			d.n.namedMounts++
			continue
		}
		d.n.mounts++
		if got.ReadOnly != v.ReadOnly {
			d.errorf(name, "volumes", "%s: read_only %v in docker compose, %v in the manifest", target, v.ReadOnly, got.ReadOnly)
		}
		if v.Type != "bind" {
			continue
		}
		// A bind of a path in the corpus was written relative to the
		// project: it lands under the host project directory. Any other
		// absolute path is the same path on the target host. A source
		// under HOME was written with ~ and needs a path of its own,
		// which the skeleton gives as a placeholder.
		// Cleaned: docker compose keeps an absolute source as written
		// ("/etc/pihole/"), and every path of a manifest is clean.
		src := path.Clean(unescape(v.Source))
		want := src
		switch {
		case home != "" && within(home, src):
			continue
		case relocated[src] != "":
			// The module may not own it there: declared with a
			// path of its own, its data moves (compose2manifest plan).
			want = relocated[src]
		case relocatedWithin(relocated, src) != "":
			// Inside a bind given a path of its own: docker mounts
			// them as one tree, and it moves with that one.
			want = relocatedWithin(relocated, src)
		case within(root, src):
			r, _ := filepath.Rel(dir, src)
			want = path.Join(hostDir, filepath.ToSlash(r))
		}
		if got.Source != want {
			d.errorf(name, "volumes", "%s: bind of %s lands at %s, want %s", target, src, got.Source, want)
		}
	}
	// A config with a file: is mounted as a read-only volume of that file
	// (docker compose lists it under configs:, at /NAME by default).
	for _, c := range svc.Configs {
		if dc.Configs[c.Source].File == "" {
			continue
		}
		expected[runtimeTarget("config", c)] = true
	}
	// A VOLUME the image declares is where docker makes an anonymous
	// volume of its own; the manifest mounts a declared directory there
	// (C2M024 refuses the module until one is declared).
	if table, err := images.Load(); err == nil {
		for _, v := range table.Volumes(svc.Image) {
			expected[path.Clean(v.Path)] = true
		}
	}
	for _, target := range sortedKeys(mounted) {
		if !expected[target] {
			d.errorf(name, "volumes", "the container mounts %s at %s; docker compose mounts nothing there", mounted[target].Source, target)
		}
	}
	for _, t := range svc.Tmpfs {
		target := path.Clean(strings.SplitN(unescape(t), ":", 2)[0])
		if !tmpfs[target] && !namesTarget(diags, name, target) {
			d.errorf(name, "volumes", "tmpfs %s: not in the container's tmpfs and no diagnostic names it", target)
		}
	}
}

// compareFileRefs: each secret, and each config the container carries
// inline, is where docker compose puts it (runtimeTarget) and has the mode
// docker compose reads (a mode: 440 is decimal there). A config with a
// file: is a volume (compareVolumes); one the manifest leaves out is not
// compared here.
func compareFileRefs(d *differ, name, what string, dc []dcFileRef, got []manifest.FileRef) {
	for _, ref := range dc {
		for _, g := range got {
			if g.Source != ref.Source {
				continue
			}
			if want := runtimeTarget(what, ref); g.Target != want {
				d.errorf(name, what+"s", "%s %s: docker compose puts it at %s, the manifest at %s", what, ref.Source, want, g.Target)
			}
			if ref.Mode == "" {
				continue
			}
			want, err1 := strconv.ParseInt(ref.Mode, 8, 64)
			have, err2 := strconv.ParseInt(g.Mode, 8, 64)
			if err1 != nil || err2 != nil || want != have {
				d.errorf(name, what+"s", "%s %s: mode %s in docker compose, %q in the manifest", what, ref.Source, ref.Mode, g.Mode)
			}
			d.n.modes++
		}
	}
}

// runtimeTarget is where docker compose puts a secret or config in the
// container, which config --format json prints as written: a relative
// target lies below /run/secrets for a secret and below / for a config,
// and none is /run/secrets/NAME or /NAME (pkg/compose's
// buildContainerSecretMounts and buildContainerConfigMounts).
func runtimeTarget(what string, ref dcFileRef) string {
	base := "/"
	if what == "secret" {
		base = "/run/secrets"
	}
	t := unescape(ref.Target)
	switch {
	case t == "":
		return path.Join(base, ref.Source)
	case !strings.HasPrefix(t, "/"):
		return path.Join(base, t)
	}
	return path.Clean(t)
}

func compareEnvironment(d *differ, name string, svc dcService, ct *manifest.Container, diags []rules.Diagnostic) {
	var unset []string
	for _, k := range sortedKeys(svc.Environment) {
		if svc.Environment[k] == nil {
			unset = append(unset, k)
		}
	}
	if len(unset) > 0 && !leftOutReported(diags, name, unset) {
		d.errorf(name, "environment", "%s: no value in docker compose; no C2M014 of the service says they are left out", strings.Join(unset, ", "))
	}
	d.n.leftOutEnv += len(unset)
	d.n.env += len(svc.Environment) - len(unset)
	for _, k := range sortedKeys(svc.Environment) {
		v := svc.Environment[k]
		got, ok := ct.Environment[k]
		switch {
		case v == nil:
			// No value in the files or the environment: docker compose
			// passes none, the manifest leaves it out and C2M014 says so.
			if ok {
				d.errorf(name, "environment", "%s: no value in docker compose, %q in the manifest", k, got)
			}
		case !ok && strings.HasPrefix(ct.Environment[k+"_FILE"], "/run/secrets/"):
			// Delivered as a credential (credentials:): the value is
			// the mesh's to give, in the file VAR_FILE names.
		case !ok && ct.EnvCredentials[k] != "":
			// Delivered as a credential the host sets the variable from.
		case !ok:
			if !mentions(diags, name, "", k) {
				d.errorf(name, "environment", "%s=%q in docker compose, missing from the manifest and no diagnostic names it", k, unescape(*v))
			}
		case strings.Contains(got, "********") && mentionsRule(diags, name, "C2M015"):
			// A secret's value, masked in a refused module's candidate
			// (C2M015 says where it was found).
		case got != unescape(*v):
			d.errorf(name, "environment", "%s: docker compose %q, manifest %q", k, unescape(*v), got)
		}
	}
	for _, k := range sortedKeys(ct.Environment) {
		if base, isFile := strings.CutSuffix(k, "_FILE"); isFile && strings.HasPrefix(ct.Environment[k], "/run/secrets/") && svc.Environment[base] != nil {
			continue // the credential standing for base
		}
		if _, ok := svc.Environment[k]; !ok {
			d.errorf(name, "environment", "%s=%q in the manifest, not in docker compose", k, ct.Environment[k])
		}
	}
}

func comparePorts(d *differ, name string, svc dcService, ct *manifest.Container) {
	count := map[string]int{}
	for _, p := range svc.Ports {
		// docker compose honors mode only in Swarm ("ports[].mode: host
		// is only honored by the Swarm routing mesh"), but the manifest
		// carries what the project says: mode: host, and nothing for
		// ingress, every port's default.
		mode := p.Mode
		if mode == "ingress" {
			mode = ""
		}
		count[portKey(p.Name, p.HostIP, unescape(p.Published), p.Target, p.Protocol, p.AppProtocol, mode)]++
	}
	d.n.ports += len(svc.Ports)
	for _, p := range ct.Ports {
		count[portKey(p.Name, p.HostIP, p.Published, p.Target, p.Protocol, p.AppProto, p.Mode)]--
	}
	for _, k := range sortedKeys(count) {
		switch n := count[k]; {
		case n > 0:
			d.errorf(name, "ports", "%s: published by docker compose, not by the manifest", k)
		case n < 0:
			d.errorf(name, "ports", "%s: published by the manifest, not by docker compose", k)
		}
	}
}

func portKey(name, hostIP, published string, target uint32, protocol, app, mode string) string {
	s := fmt.Sprintf("%s:%s->%d/%s", hostIP, published, target, protocol)
	for _, x := range []struct{ k, v string }{{"name", name}, {"app_protocol", app}, {"mode", mode}} {
		if x.v != "" {
			s += " " + x.k + "=" + x.v
		}
	}
	return s
}

// leftOutReported reports whether a C2M014 of the service names exactly
// the variables unset (sorted) as left out: "environment A, B: no value
// …", or with the list cut short, "environment A, B, C, D, E and 3 more:".
func leftOutReported(diags []rules.Diagnostic, service string, unset []string) bool {
	for _, d := range diags {
		list, ok := strings.CutPrefix(d.Message, "environment ")
		if d.Rule != "C2M014" || d.Service != service || !ok {
			continue
		}
		list, _, ok = strings.Cut(list, ": ")
		if !ok {
			continue
		}
		more := 0
		if head, tail, ok := strings.Cut(list, " and "); ok {
			if _, err := fmt.Sscanf(tail, "%d more", &more); err != nil {
				continue
			}
			list = head
		}
		names := strings.Split(list, ", ")
		if len(names)+more != len(unset) {
			continue
		}
		match := true
		for i, n := range names {
			match = match && n == unset[i]
		}
		if match {
			return true
		}
	}
	return false
}

// unescape undoes docker compose config's escaping of "$" as "$$" in
// what it prints: the manifest carries the literal value the container
// gets.
func unescape(s string) string { return strings.ReplaceAll(s, "$$", "$") }

// named reports whether a diagnostic of rule names the service.
func named(diags []rules.Diagnostic, service, rule string) bool {
	for _, d := range diags {
		if d.Service == service && d.Rule == rule {
			return true
		}
	}
	return false
}

// namesTarget reports whether a diagnostic names the service's volume
// target.
func namesTarget(diags []rules.Diagnostic, service, target string) bool {
	for _, d := range diags {
		if d.Service == service && d.Target != "" && path.Clean(d.Target) == target {
			return true
		}
	}
	return false
}

// mentions reports whether a diagnostic (of rule, or any rule for "") of
// the service, or of no service, names the variable in its message.
func mentions(diags []rules.Diagnostic, service, rule, name string) bool {
	for _, d := range diags {
		if (d.Service == service || d.Service == "") && (rule == "" || d.Rule == rule) && containsWord(d.Message, name) {
			return true
		}
	}
	return false
}

// containsWord reports whether s holds word delimited by characters that
// cannot be part of a variable name.
func containsWord(s, word string) bool {
	isName := func(b byte) bool {
		return b == '_' || b == '.' || b == '-' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isName(s[j-1])) && (end == len(s) || !isName(s[end]) || s[end] == '.' && (end+1 == len(s) || s[end+1] == ' ')) {
			return true
		}
		i = j + 1
	}
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}

func diagSummary(diags []rules.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity == rules.Error {
			fmt.Fprintf(&b, "\n  %s", d)
		}
	}
	return b.String()
}

// lastLine returns the last line of docker compose's stderr, its error;
// the warnings come before it.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// corpusProjects returns every compose file under root with a top-level
// services: key, each a project of its own, as the corpus test of
// cmd/compose2manifest enumerates them.
func corpusProjects(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var top map[string]any
		if yaml.Unmarshal(data, &top) == nil && top["services"] != nil {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mentionsRule reports whether a diagnostic of rule id names service.
func mentionsRule(diags []rules.Diagnostic, service, id string) bool {
	for _, d := range diags {
		if d.Rule == id && (d.Service == service || strings.Contains(d.Message, service)) {
			return true
		}
	}
	return false
}

// relocatedWithin returns where src lands when it lies inside a source
// relocated names (the outermost such), or "".
func relocatedWithin(relocated map[string]string, src string) string {
	best, to := "", ""
	for from, p := range relocated {
		// Rel, not a prefix of from+"/": from may be "/".
		r, err := filepath.Rel(from, src)
		if err != nil || r == "." || r == ".." || strings.HasPrefix(r, "../") {
			continue
		}
		if best == "" || len(from) < len(best) {
			best, to = from, path.Join(p, filepath.ToSlash(r))
		}
	}
	return to
}
