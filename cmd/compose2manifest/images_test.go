package main

import (
	"strings"

	"github.com/compose2manifest/compose2manifest/imageconfig/imagetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdImage implements "image registry|layout|archive DEST REF [user=U]
// [volumes=/a,/b] [env=A=1,B=2]": it makes an image with that config
// (imagetest.Image) and pushes it to the story's in-memory registry
// ($REGISTRY; DEST is then -), or writes it to the OCI layout DEST or the
// docker save archive DEST, named REF. No story touches the network.
func cmdImage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: image registry|layout|archive DEST REF [user=U] [volumes=/a,/b] [env=A=1,B=2]")
	}
	user := ""
	var volumes, env []string
	for _, a := range args[3:] {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "user":
			user = v
		case "volumes":
			volumes = strings.Split(v, ",")
		case "env":
			env = strings.Split(v, ",")
		default:
			ts.Fatalf("image: unknown %q", a)
		}
	}
	img, err := imagetest.Image(user, volumes, env)
	ts.Check(err)
	ref := args[2]
	switch args[0] {
	case "registry":
		_, err = (&imagetest.Registry{Host: ts.Getenv("REGISTRY")}).Push(strings.TrimPrefix(ref, ts.Getenv("REGISTRY")+"/"), img)
	case "layout":
		err = imagetest.WriteLayout(ts.MkAbs(args[1]), ref, img)
	case "archive":
		err = imagetest.WriteArchive(ts.MkAbs(args[1]), ref, img)
	default:
		ts.Fatalf("image: %q: want registry, layout or archive", args[0])
	}
	ts.Check(err)
}

// startRegistry serves an in-memory registry for the story, at $REGISTRY.
func startRegistry(env *testscript.Env) error {
	reg, err := imagetest.NewRegistry()
	if err != nil {
		return err
	}
	env.Setenv("REGISTRY", reg.Host)
	env.Defer(reg.Close)
	return nil
}
