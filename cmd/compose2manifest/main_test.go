package main

import (
	"errors"
	"io"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sirupsen/logrus"
)

// TestMain lets the scripts run compose2manifest as a command: testscript
// re-executes this test binary as it.
func TestMain(m *testing.M) {
	logrus.SetOutput(io.Discard) // as main does
	testscript.Main(m, map[string]func(){
		"compose2manifest": main,
	})
}

// TestScripts runs the stories in testdata/script: each .txt file is a
// txtar archive of a script and the files it uses.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"status": cmdStatus,
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
