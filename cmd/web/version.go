package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
)

// version and commit are set at build time by the Makefile:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234" ./cmd/web
//
// Unset, they come from the build information Go records (module version, VCS revision).
var (
	version string
	commit  string
)

// buildInfo is what `web version` prints.
type buildInfo struct {
	Version, Commit, Go string
	Modified            bool
}

// currentBuild reads the linker-set values, falling back to runtime/debug.ReadBuildInfo.
func currentBuild() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Go: "unknown"}
	if info, ok := debug.ReadBuildInfo(); ok {
		b.Go = info.GoVersion
		if b.Version == "" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}

// versionCommand runs `web version`.
func versionCommand(_ context.Context, args []string, _ environment, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.Usage = commandUsage(fs, "web version", "Print the version, the commit it was built from and the Go version.", "")
	if err := parseFlagsOnly(fs, args, stderr); err != nil {
		return err
	}
	b := currentBuild()
	dirty := ""
	if b.Modified {
		dirty = " (modified)"
	}
	fmt.Fprintf(stdout, "web %s\ncommit %s%s\n%s\n", b.Version, b.Commit, dirty, b.Go)
	return nil
}
