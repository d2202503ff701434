package project

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/consts"
	"github.com/compose-spec/compose-go/v2/errdefs"
	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose-spec/compose-go/v2/utils"
	yaml4 "go.yaml.in/yaml/v4"
)

// loadCompose loads the project with compose-go, once, as
// cli.ProjectOptions.LoadProject does with po, with two differences:
//
//   - compose-go is handed the bytes of each -f file that readRaw read
//     (types.ConfigFile.Content) instead of reading the file a second
//     time, so what it loads is what Inputs hashes. (The files an include
//     or an extends.file names compose-go reads by path: its loader has
//     no way to be handed them.)
//   - The model is bound to the typed project in a step of its own
//     (loader.LoadModelWithContext, then loader.ModelToProject), so that
//     when compose-go's consistency check fails, the same model is bound
//     again without the check, and without reading env files, to name
//     every problem (consistency): the project is not loaded again.
//
// more are load options after those of po. When readRaw has not the
// bytes of every -f file (one it could not read), it is po.LoadProject
// as it is, and the consistency problems are not listed.
func (l *Project) loadCompose(ctx context.Context, in *inputs, opts Options, po *cli.ProjectOptions, more ...func(*loader.Options)) (*types.Project, []string, error) {
	files := make([]types.ConfigFile, len(in.files))
	for i, f := range in.files {
		data, ok := l.raw.read[f]
		if !ok {
			if opts.onLoad != nil {
				opts.onLoad(nil)
			}
			if err := cli.WithLoadOptions(more...)(po); err != nil {
				return nil, nil, err
			}
			p, err := po.LoadProject(ctx)
			return p, nil, err
		}
		files[i] = types.ConfigFile{Filename: f, Content: data}
	}
	details := types.ConfigDetails{ConfigFiles: files, WorkingDir: in.dir, Environment: po.Environment}

	// What ProjectOptions.prepare adds: the name's precedence (-p, then
	// COMPOSE_PROJECT_NAME, then a name: in a file, then the folder's),
	// Windows paths; the profiles of WithDefaultProfiles.
	named := false
	if po.Name == "" {
		for _, f := range files {
			var n struct {
				Name string `yaml:"name,omitempty"`
			}
			if err := yaml4.Unmarshal(f.Content, &n); err != nil {
				return nil, nil, err
			}
			if n.Name != "" {
				named = true
				break
			}
		}
	}
	profiles := opts.Profiles
	if len(profiles) == 0 {
		for _, s := range strings.Split(po.Environment[consts.ComposeProfiles], ",") {
			profiles = append(profiles, strings.TrimSpace(s))
		}
	}
	fns := []func(*loader.Options){
		loader.WithProfiles(profiles),
		func(o *loader.Options) { o.ResolvePaths = true },
	}
	fns = append(fns, more...)
	fns = append(fns, func(o *loader.Options) {
		switch {
		case po.Name != "":
			o.SetProjectName(po.Name, true)
		case po.Environment[consts.ComposeProjectName] != "":
			o.SetProjectName(po.Environment[consts.ComposeProjectName], true)
		case !named:
			o.SetProjectName(loader.NormalizeProjectName(filepath.Base(in.dir)), false)
		}
		if o.ResolvePaths {
			o.ConvertWindowsPaths = utils.StringToBool(po.Environment["COMPOSE_CONVERT_WINDOWS_PATHS"])
		}
	})

	if opts.onLoad != nil {
		opts.onLoad(loader.ToOptions(&details, fns))
	}
	model, err := loader.LoadModelWithContext(ctx, details, fns...)
	if err != nil {
		return nil, nil, err
	}
	// The name compose-go settled on (normalisation writes it into the
	// model) binds the model as it would have bound it.
	name, _ := model["name"].(string)
	bind := func(extra ...func(*loader.Options)) (*types.Project, error) {
		o := loader.ToOptions(&details, append(append(fns[:len(fns):len(fns)], extra...), func(o *loader.Options) { o.SetProjectName(name, true) }))
		return loader.ModelToProject(model, o, details)
	}
	p, err := bind()
	if err != nil {
		if !errors.Is(err, errdefs.ErrInvalid) {
			return nil, nil, err
		}
		// compose-go's consistency check reports the first problem it
		// meets in map order, which varies from run to run: bind the same
		// model without it and name every problem in a stable order.
		q, qerr := bind(func(o *loader.Options) {
			o.SkipConsistencyCheck, o.SkipResolveEnvironment, o.SkipResolveLabels = true, true, true
		})
		if qerr != nil {
			return nil, nil, err
		}
		return nil, l.consistency(q), err
	}
	p.ComposeFiles = append(p.ComposeFiles, in.files...)
	return p, nil, nil
}
