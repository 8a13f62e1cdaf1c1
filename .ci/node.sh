#!/usr/bin/env bash
# Installs Node.js and npm for the OpenAPI lint (`make lint-openapi`, tools/redocly), from apt
# only and only what is missing. Called by .ci/run; usable by hand: bash .ci/node.sh
# The pinned Redocly CLI needs Node 20.19 or newer: Debian 13's nodejs is; Debian 12's (18) is
# not, so a Debian 12 machine needs a newer nodejs already installed (NodeSource, for example).
set -euo pipefail

need=()
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]} from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

version=$(node --version)
IFS=. read -r major minor _ <<<"${version#v}"
if [ "$major" -lt 20 ] || { [ "$major" -eq 20 ] && [ "$minor" -lt 19 ]; }; then
  echo "node $version is too old for tools/redocly: it needs 20.19 or newer" >&2
  exit 1
fi
echo "node $version, npm $(npm --version)" >&2
