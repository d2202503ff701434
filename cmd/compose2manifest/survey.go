package main

import "github.com/compose2manifest/compose2manifest/survey/legacy"

// runSurvey implements "survey": convert's flags, and legacy.Command.
func runSurvey(e *env, args []string) int {
	fs, cf := newConvertFlags("survey", e)
	r := legacy.Flags(fs)
	if code, ok := parseFlags(e, fs, cmdUsage{name: "survey", synopsis: legacy.Synopsis, about: legacy.About, hint: composeFileHint}, args); !ok {
		return code
	}
	r.Convert, r.Convert.Environ, r.Convert.WorkingDirectory = cf.opts, e.environ, e.dir
	if f := legacy.Command(*r, e.stdout); f != nil {
		errorf(e, "%s", f.Msg)
		for _, h := range f.Hints {
			hintf(e, "%s", h)
		}
		return f.Code
	}
	return exitOK
}
