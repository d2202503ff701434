package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/schematest"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sirupsen/logrus"
)

// TestMain lets the scripts run compose2manifest as a command: testscript
// re-executes this test binary as it.
func TestMain(m *testing.M) {
	logrus.SetOutput(io.Discard) // as main does
	testscript.Main(m, map[string]func(){
		"compose2manifest": capturingMain,
	})
}

// captureDir is the variable that names, in a story, the folder where
// capturingMain keeps the reports the story's commands print.
const captureDir = "C2M_TEST_CAPTURE"

// capturingMain is main, for the stories. When captureDir is set, it also
// keeps what the command prints with --format json (a report, or plan's
// and inventory's JSON) or --format sarif, and, for a check in another format, runs the same check once
// more with --format sarif first: so every check of every story gives a
// SARIF log. TestScripts validates them all after each story.
func capturingMain() {
	dir := os.Getenv(captureDir)
	args := os.Args[1:]
	if dir == "" || len(args) == 0 || (args[0] != "check" && args[0] != "convert" && args[0] != "plan" && args[0] != "inventory") {
		main()
		return
	}
	format := ""
	for i, a := range args {
		switch {
		case a == "--format" && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "--format="):
			format = strings.TrimPrefix(a, "--format=")
		case a == "-h" || a == "--help":
			main()
			return
		}
	}
	logrus.SetOutput(io.Discard)
	e, err := processEnv()
	if err != nil {
		main()
		return
	}
	if args[0] == "check" && format != "sarif" && format != "json" {
		f, err := os.CreateTemp(dir, "*.sarif")
		if err == nil {
			quiet := *e
			quiet.stdout, quiet.stderr = f, io.Discard
			run(&quiet, append(append([]string(nil), args...), "--format", "sarif"))
			f.Close()
		}
	}
	if format == "json" || format == "sarif" {
		ext := map[string]string{"json": "*.report.json", "sarif": "*.sarif"}[format]
		if format == "json" && (args[0] == "plan" || args[0] == "inventory") {
			ext = "*." + args[0] + ".json"
		}
		if f, err := os.CreateTemp(dir, ext); err == nil {
			defer f.Close()
			e.stdout = io.MultiWriter(e.stdout, f)
		}
	}
	code := run(e, args)
	os.Exit(code)
}

// TestScripts runs the stories in testdata/script: each .txt file is a
// txtar archive of a script and the files it uses. After each story, the
// reports and SARIF logs its commands printed are validated: the reports
// against schema/report.json, the logs against the SARIF 2.1.0 schema and
// GitHub code scanning's requirements (internal/schematest).
// updateScripts rewrites the files a story compares with cmp (go test
// ./cmd/compose2manifest -run TestScripts -update-scripts).
var updateScripts = flag.Bool("update-scripts", false, "rewrite the files the testscript stories compare with cmp")

func TestScripts(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	counts := map[string]int{}
	// The stories run in parallel, after this function returns.
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		t.Logf("validated %d SARIF logs, %d JSON reports, %d plans and %d inventories", counts["sarif"], counts["report"], counts["plan"], counts["inventory"])
		if f := flag.Lookup("test.run"); !t.Failed() && f != nil && f.Value.String() == "" && (counts["sarif"] < 20 || counts["report"] < 5 || counts["plan"] < 3 || counts["inventory"] < 3) {
			t.Errorf("validated only %v", counts)
		}
	})
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateScripts,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"status": cmdStatus,
			"image":  cmdImage,
		},
		// [file:PATH] holds when PATH exists on this machine (a client's
		// support file, such as bash-completion's).
		Condition: func(cond string) (bool, error) {
			if p, ok := strings.CutPrefix(cond, "file:"); ok {
				_, err := os.Stat(p)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			if err := startRegistry(env); err != nil {
				return err
			}
			dir := filepath.Join(env.WorkDir, ".capture")
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			env.Setenv(captureDir, dir)
			env.Defer(func() {
				files, _ := filepath.Glob(filepath.Join(dir, "*"))
				for _, f := range files {
					data, err := os.ReadFile(f)
					if err != nil || len(data) == 0 {
						continue // a usage error prints nothing
					}
					kind := "sarif"
					switch {
					case strings.HasSuffix(f, ".report.json"):
						kind = "report"
						err = v.JSON("report", data)
					case strings.HasSuffix(f, ".plan.json"):
						kind = "plan"
						err = v.JSON(kind, data)
					case strings.HasSuffix(f, ".inventory.json"):
						kind = "inventory"
						err = v.JSON(kind, data)
					default:
						err = v.SARIF(data)
					}
					mu.Lock()
					counts[kind]++
					mu.Unlock()
					if err != nil {
						env.T().Fatal(fmt.Sprintf("%s printed by a command of this story: %v\n%s", kind, err, data))
					}
				}
			})
			return nil
		},
	})
}

// cmdStatus implements "status N COMMAND [ARGS...]": it runs COMMAND like
// exec and fails unless it exits with status N. Its stdout and stderr are
// then checked with stdout and stderr, as after exec.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
