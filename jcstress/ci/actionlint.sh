#!/usr/bin/env bash
# Lints the GitHub workflows (.github/workflows/*.yml) with actionlint, pinned to one version.
# actionlint is installed with `go install` into a per-user cache (kept across `mvn clean`) the first time;
# later runs reuse it (and `go install` rebuilds from Go's module cache without network).
# No Go and no cached actionlint: fails loudly (exit 2), never skips silently.
set -euo pipefail

VERSION=v1.7.7
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN_DIR=${ACTIONLINT_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/deliqueue/actionlint-$VERSION}
BIN=$BIN_DIR/actionlint

if [ ! -x "$BIN" ]; then
  GO=$(command -v go || true)
  if [ -z "$GO" ] && [ -x /usr/local/go/bin/go ]; then
    GO=/usr/local/go/bin/go
  fi
  if [ -z "$GO" ]; then
    echo "actionlint.sh: ERROR: actionlint $VERSION is not installed in $BIN_DIR and Go is not on PATH." >&2
    echo "actionlint.sh: install Go (Debian: apt-get install golang-go) or put an actionlint $VERSION binary at $BIN." >&2
    exit 2
  fi
  mkdir -p "$BIN_DIR"
  echo "actionlint.sh: installing actionlint $VERSION into $BIN_DIR"
  GOBIN=$BIN_DIR "$GO" install "github.com/rhysd/actionlint/cmd/actionlint@$VERSION"
fi

if ! "$BIN" -version | head -n1 | grep -qx "$VERSION"; then
  echo "actionlint.sh: ERROR: $BIN is not actionlint $VERSION" >&2
  exit 2
fi

cd "$ROOT"
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
if [ ${#workflows[@]} -eq 0 ]; then
  echo "actionlint.sh: ERROR: no workflow files under $ROOT/.github/workflows" >&2
  exit 2
fi
"$BIN" -no-color "${workflows[@]}"
echo "actionlint.sh: ${#workflows[@]} workflow file(s) OK (actionlint $VERSION)"
