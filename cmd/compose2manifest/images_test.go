package main

import (
	"archive/tar"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/imageconfig/imagetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdImage implements "image registry|layout|archive DEST REF [user=U]
// [volumes=/a,/b] [env=A=1,B=2] [dir=/p:UID:GID:MODE]... [link=/p:TARGET]...":
// it makes an image with that config (imagetest.Image), and a layer with
// those directories and symbolic links, and pushes it to the story's in-memory registry
// ($REGISTRY; DEST is then -), or writes it to the OCI layout DEST or the
// docker save archive DEST, named REF. No story touches the network.
func cmdImage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: image registry|layout|archive DEST REF [user=U] [volumes=/a,/b] [env=A=1,B=2]")
	}
	user := ""
	var volumes, env []string
	var entries []imagetest.Entry
	for _, a := range args[3:] {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "user":
			user = v
		case "volumes":
			volumes = strings.Split(v, ",")
		case "env":
			env = strings.Split(v, ",")
		case "dir":
			f := strings.Split(v, ":")
			if len(f) != 4 {
				ts.Fatalf("image: dir=%s: want /PATH:UID:GID:MODE", v)
			}
			uid, err1 := strconv.Atoi(f[1])
			gid, err2 := strconv.Atoi(f[2])
			mode, err3 := strconv.ParseInt(f[3], 8, 64)
			if err1 != nil || err2 != nil || err3 != nil {
				ts.Fatalf("image: dir=%s: want /PATH:UID:GID:MODE", v)
			}
			entries = append(entries, imagetest.Entry{Path: strings.TrimPrefix(f[0], "/") + "/", Type: tar.TypeDir, Uid: uid, Gid: gid, Mode: mode})
		case "link":
			p, target, _ := strings.Cut(v, ":")
			entries = append(entries, imagetest.Entry{Path: strings.TrimPrefix(p, "/"), Type: tar.TypeSymlink, Link: target})
		default:
			ts.Fatalf("image: unknown %q", a)
		}
	}
	img, err := imagetest.Image(user, volumes, env)
	ts.Check(err)
	if len(entries) > 0 {
		img, err = imagetest.AddLayer(img, entries...)
		ts.Check(err)
	}
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
