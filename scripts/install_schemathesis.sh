#!/usr/bin/env bash
# Installs the schemathesis version pinned in tests/conformance/requirements.txt into
# ~/.cache/cubby-schemathesis-<version> (or $SCHEMATHESIS_HOME), where the API conformance run
# (tests/conformance/schemathesis.ts) looks for it. Idempotent: does nothing when that version
# is already there. Uses a venv when python3 has one; otherwise `pip install --target` (which
# works where pip refuses system or --user installs) with a small `bin/st` wrapper.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REQUIREMENTS="tests/conformance/requirements.txt"
VERSION="$(sed -n 's/^schemathesis==\([0-9A-Za-z.]*\)[[:space:]]*$/\1/p' "$REQUIREMENTS")"
[ -n "$VERSION" ] || { echo "error: no schemathesis==X.Y.Z in $REQUIREMENTS" >&2; exit 1; }
DIR="${SCHEMATHESIS_HOME:-${HOME:-/tmp}/.cache/cubby-schemathesis-${VERSION}}"

installed() {
  [ -x "$DIR/bin/st" ] && "$DIR/bin/st" --version 2>/dev/null | grep -q "version ${VERSION}\$"
}

installed && exit 0
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
echo "installing schemathesis ${VERSION} into ${DIR}"
rm -rf "$DIR"
if python3 -m venv "$DIR" >/dev/null 2>&1 && [ -x "$DIR/bin/pip" ]; then
  "$DIR/bin/pip" install --quiet -r "$REQUIREMENTS"
else
  # No venv module (Debian without python3-venv): a plain directory on PYTHONPATH.
  rm -rf "$DIR"
  python3 -m pip install --quiet --target "$DIR/lib" \
    -r "$REQUIREMENTS"
  mkdir -p "$DIR/bin"
  cat >"$DIR/bin/st" <<EOF
#!/bin/sh
PYTHONPATH="$DIR/lib\${PYTHONPATH:+:\$PYTHONPATH}" exec "$(command -v python3)" -m schemathesis.cli "\$@"
EOF
  chmod +x "$DIR/bin/st"
fi
installed || { echo "error: schemathesis ${VERSION} did not install into ${DIR}" >&2; exit 1; }
