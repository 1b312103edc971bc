#!/usr/bin/env bash
# Builds the web app and serves it at http://127.0.0.1:8080 (see Trunk.toml).
# Extra arguments go to `trunk serve`, e.g. `./scripts/serve.sh --port 9000`.

set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_BROWSER=0 source scripts/setup.sh

exec trunk serve --release --offline --skip-version-check "$@"
