#!/usr/bin/env bash
# Sets up DirectML itself for the cross-check, in .directml/ (see docs/directml.md). Sourced by setup.sh; never fatal:
# where a step cannot run (no root for apt-get, no gcc, another OS), it says why and the app runs on ONNX Runtime.
#
# What it assembles, each piece from a package registry:
# - libdirectml.so from the PyPI wheel torch-directml, pinned by version and sha256 (torch itself is never installed);
# - vkd3d 2.x (D3D12 on Vulkan, the first releases that read DirectML's DXIL shaders) and the glibc it is built
#   against, from Debian forky, fetched by apt-get against Debian's signed index and unpacked into .directml/sysroot
#   (nothing is installed into the system from forky; the DirectML worker alone runs on that glibc);
# - Debian 12's lavapipe (mesa-vulkan-drivers), Vulkan loader and gcc, installed by apt-get as root;
# - the bridge (native/directml), compiled here.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DML_WHEEL_VERSION=0.2.5.dev240914
DML_WHEEL_SHA256=6afb675585d30018c813e5ba203a3437073748919af8ab3e910092a0e0ec531f
FORKY_PACKAGES="libc6 libvkd3d1 libvkd3d-shader1 libvkd3d-utils1 libvkd3d-headers"
dml=.directml

say() { echo "setup_directml: $*" >&2; }

directml_setup() {
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
        say "DirectML's Linux build is x86-64 Linux only; skipped on $(uname -s)-$(uname -m)"; return 0
    fi
    local stamp
    stamp=$(cat scripts/setup_directml.sh native/directml/* 2>/dev/null | sha256sum | cut -c1-16)
    if [ -f "$dml/ready" ] && [ "$(cat "$dml/ready")" = "$stamp" ]; then return 0; fi

    local need=""
    command -v gcc >/dev/null || need="$need gcc libc6-dev"
    [ -f /usr/include/vulkan/vulkan.h ] || need="$need libvulkan-dev"
    ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || need="$need mesa-vulkan-drivers"
    command -v dpkg-deb >/dev/null || need="$need dpkg"
    if [ -n "$need" ]; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            say "installing$need"
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null \
                || { say "apt-get could not install$need; DirectML skipped"; return 0; }
        else
            say "needs$need (apt-get as root); DirectML skipped"; return 0
        fi
    fi

    rm -rf "$dml" && mkdir -p "$dml/download" "$dml/sysroot" "$dml/lib" "$dml/apt/lists/partial" "$dml/apt/cache"

    echo "torch-directml==$DML_WHEEL_VERSION --hash=sha256:$DML_WHEEL_SHA256" > "$dml/download/requirements.txt"
    local python=python3
    [ -x .venv/bin/python ] && python=.venv/bin/python
    if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2010_x86_64 \
            --python-version 311 --require-hashes -r "$dml/download/requirements.txt" -d "$dml/download"; then
        say "pip could not fetch torch-directml==$DML_WHEEL_VERSION; DirectML skipped"; return 0
    fi
    "$python" - "$dml" <<'EOF' || { say "the wheel holds no libdirectml.so"; return 0; }
import glob, sys, zipfile
dml = sys.argv[1]
with zipfile.ZipFile(glob.glob(f"{dml}/download/torch_directml-*.whl")[0]) as wheel:
    with wheel.open("torch_directml/libdirectml.so") as src, open(f"{dml}/lib/libdirectml.so", "wb") as dst:
        dst.write(src.read())
EOF

    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian forky main" \
        > "$dml/apt/sources.list"
    local apt_opts=(-o "Dir::Etc::SourceList=$PWD/$dml/apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
                    -o "Dir::State::Lists=$PWD/$dml/apt/lists" -o "Dir::Cache=$PWD/$dml/apt/cache"
                    -o "Dir::State::Status=/dev/null" -o "Debug::NoLocking=1" -o "APT::Architecture=amd64"
                    -o "APT::Get::List-Cleanup=0")
    if ! apt-get "${apt_opts[@]}" update -qq >/dev/null 2>"$dml/apt/update.log" \
        || ! (cd "$dml/download" && apt-get "${apt_opts[@]}" download $FORKY_PACKAGES >/dev/null 2>../apt/download.log); then
        say "apt-get could not fetch $FORKY_PACKAGES from Debian forky (see $dml/apt/*.log); DirectML skipped"; return 0
    fi
    for deb in "$dml"/download/*.deb; do dpkg-deb -x "$deb" "$dml/sysroot"; done
    (cd "$dml/download" && ls *.deb) > "$dml/packages.txt"
    rm -f "$dml"/download/*.deb "$dml"/download/*.whl

    local sysroot=$PWD/$dml/sysroot include="-Inative/directml -I$PWD/$dml/sysroot/usr/include -I$PWD/$dml/sysroot/usr/include/vkd3d"
    local libs=$sysroot/usr/lib/x86_64-linux-gnu
    if ! { "$python" native/directml/gen_bridge.py "$sysroot/usr/include/vkd3d" "$dml/bridge_gen.c" \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libd3d12.so" $include native/directml/bridge.c \
            "$dml/bridge_gen.c" native/directml/export.c -ldl -lpthread \
            -Wl,--version-script=native/directml/d3d12.map -Wl,-soname,libd3d12.so \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libdxcore.so" native/directml/dxcore.c -Wl,-soname,libdxcore.so \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libdmlrun.so" $include native/directml/dmlrun.c \
            -L"$dml/lib" -L"$libs" -l:libd3d12.so -l:libdxcore.so -l:libvkd3d.so.1 -l:libvkd3d-utils.so.1 \
            -lvulkan -ldl -Wl,-rpath,'$ORIGIN'; } 2>"$dml/build.log"; then
        say "the bridge did not build (see $dml/build.log); DirectML skipped"; return 0
    fi
    echo "$stamp" > "$dml/ready"
    say "ready: $(cat "$dml/packages.txt" | tr '\n' ' ')"
}

directml_setup
