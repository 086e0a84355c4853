#!/usr/bin/env bash
# The project's test command: installs what is missing, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --tests
cargo test --locked --workspace
# The build without Tesseract (docs/install.md), with a scan of the samples.
cargo test --locked --no-default-features --test pure
# The Debian package, tested as it is installed (docs/install.md).
scripts/test-package.sh
# The Windows release, built here and tested under Wine (docs/install.md).
scripts/test-windows.sh
