package formsource

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"usertasks/forms"
	"usertasks/models"
)

// FileProvider serves forms from a folder laid out as `<key>/<version>.json`, where version
// is a positive integer (`approval/1.json`, `approval/2.json`); `latest` or no version means the
// highest. Every schema is checked with forms.Parse when it is resolved. Keys are the same for
// every tenant.
type FileProvider struct {
	fsys fs.FS
}

// NewFileProvider serves the forms of fsys (for example an embed.FS or os.DirFS).
func NewFileProvider(fsys fs.FS) *FileProvider { return &FileProvider{fsys: fsys} }

// OpenFileProvider serves the forms of the folder dir, which must exist.
func OpenFileProvider(dir string) (*FileProvider, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("form folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("form folder %s is not a directory", dir)
	}
	return NewFileProvider(os.DirFS(dir)), nil
}

// formKeyPattern keeps a form key one safe path segment.
var formKeyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// versionFile matches the file name of one version.
var versionFile = regexp.MustCompile(`^([1-9][0-9]{0,8})\.json$`)

// Resolve implements Provider.
func (p *FileProvider) Resolve(ctx context.Context, _ string, ref models.FormRef) (models.PinnedForm, error) {
	if err := ctx.Err(); err != nil {
		return models.PinnedForm{}, err
	}
	if !formKeyPattern.MatchString(ref.Key) || strings.Contains(ref.Key, "..") || len(ref.Key) > MaxKeyLength {
		return models.PinnedForm{}, fmt.Errorf("form %q: the key is not a valid file name: %w", ref.Key, models.ErrNotFound)
	}
	version, err := p.version(ref)
	if err != nil {
		return models.PinnedForm{}, err
	}
	name := path.Join(ref.Key, strconv.Itoa(version)+".json")
	info, err := fs.Stat(p.fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return models.PinnedForm{}, fmt.Errorf("form %q version %d: %w", ref.Key, version, models.ErrNotFound)
	}
	if err != nil {
		return models.PinnedForm{}, fmt.Errorf("form %q version %d: %w", ref.Key, version, err)
	}
	if info.Size() > models.MaxProtectedPayloadBytes {
		return models.PinnedForm{}, fmt.Errorf("form %q version %d is larger than %d bytes: %w", ref.Key, version, models.MaxProtectedPayloadBytes, ErrInvalidForm)
	}
	schema, err := fs.ReadFile(p.fsys, name)
	if err != nil {
		return models.PinnedForm{}, fmt.Errorf("form %q version %d: %w", ref.Key, version, err)
	}
	if _, err := forms.Parse(schema); err != nil {
		return models.PinnedForm{}, fmt.Errorf("form %q version %d: %w: %w", ref.Key, version, ErrInvalidForm, err)
	}
	return models.PinnedForm{Key: ref.Key, Version: strconv.Itoa(version), Schema: schema}, nil
}

// version picks the concrete version of ref: the one named, or the highest file of the key.
func (p *FileProvider) version(ref models.FormRef) (int, error) {
	if ref.Version != "" && ref.Version != LatestVersion {
		v, ok := parseVersion(ref.Version)
		if !ok {
			return 0, fmt.Errorf("form %q: version %q is not a positive integer: %w", ref.Key, ref.Version, models.ErrNotFound)
		}
		return v, nil
	}
	entries, err := fs.ReadDir(p.fsys, ref.Key)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("form %q: %w", ref.Key, models.ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("form %q: %w", ref.Key, err)
	}
	highest := 0
	for _, e := range entries {
		m := versionFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		if v, _ := strconv.Atoi(m[1]); v > highest {
			highest = v
		}
	}
	if highest == 0 {
		return 0, fmt.Errorf("form %q has no versions: %w", ref.Key, models.ErrNotFound)
	}
	return highest, nil
}
