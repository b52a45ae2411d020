#!/usr/bin/env bash
# Sets up DirectML itself for the cross-check, in .directml/ (see docs/directml.md). Run by setup.sh; never fatal:
# where a step cannot run (no root for apt-get, no network, another OS), it says why and the app runs on ONNX Runtime.
#
# What it assembles, each piece cached under .directml/ by what it is made from, so a re-run with nothing changed
# takes a moment:
# - libdirectml.so from the PyPI wheel torch-directml, pinned by version and sha256 (torch itself is never installed);
# - vkd3d-proton 2.14 (Direct3D 12 on Vulkan; its dxil-spirv translates DirectML's DXIL shaders), built here from
#   the source tarball in $DML_VISUALIZER_VENDOR (default ../shared/vendor, checked against its sha256) or, where
#   that is absent, from a clone of its public repository at tag v2.14 with the submodule commits that tag pins;
# - lavapipe (Mesa's Vulkan driver on the CPU) from Debian 12's bookworm-backports, five packages at pinned versions
#   fetched with apt-get download against a private source list and unpacked, nothing installed from backports;
# - the bridge and the runner (native/directml), compiled here against vkd3d-proton's headers.
# As root it installs with apt-get what the build and lavapipe need from Debian 12 (gcc, g++, meson, ninja-build,
# glslang-tools, git, the Vulkan loader and lavapipe's shared libraries); widl, the one tool vkd3d-proton's build
# takes from Wine, is unpacked from Debian 12's wine64-tools instead of installed (installed, it pulls in 770 MB of
# Wine).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DML_WHEEL_VERSION=0.2.5.dev240914
DML_WHEEL_SHA256=6afb675585d30018c813e5ba203a3437073748919af8ab3e910092a0e0ec531f
VKD3D_PROTON_TAG=v2.14
VKD3D_PROTON_TARBALL=vkd3d-proton-2.14-src.tar.xz
VKD3D_PROTON_SHA256=4994bbee0a2ac2532c023243c2b377d2a53cd5f3cd24f3184e4f3bf5732c3e7f
VKD3D_PROTON_REPO=https://github.com/HansKristian-Work/vkd3d-proton
# The submodule commits tag v2.14 pins (path in the clone, commit); the tarball holds the same trees.
VKD3D_PROTON_SUBMODULES="subprojects/dxil-spirv 33cd5b2eee8a27da50ad7ed2762e56cca3a7b2c9
khronos/Vulkan-Headers 29f979ee5aa58b7b005f805ea8df7a855c39ff37
khronos/SPIRV-Headers 8b246ff75c6615ba4532fe4fde20f1be090c3764
subprojects/dxil-spirv/third_party/spirv-headers ec59c77a3bb5c747a369931ef101ac7c14823f2f"
# Mesa 25.0.7 built for Debian 12 (it links Debian 12's libLLVM 15). Debian 12's own lavapipe (Mesa 22.3) lacks the
# descriptor indexing vkd3d-proton requires ("Insufficient descriptor indexing support").
BACKPORTS_PACKAGES="mesa-vulkan-drivers=25.0.7-2~bpo12+1 mesa-libgallium=25.0.7-2~bpo12+1 libdrm2=2.4.123-1~bpo12+1
libdrm-amdgpu1=2.4.123-1~bpo12+1 libdrm-common=2.4.123-1~bpo12+1"
BUILD_PACKAGES="gcc g++ libc6-dev meson ninja-build glslang-tools git xz-utils dpkg libvulkan1"
vendor=${DML_VISUALIZER_VENDOR:-../shared/vendor}
dml=.directml

say() { echo "setup_directml: $*" >&2; }
key_of() { sha256sum | cut -c1-16; }
# A piece is current when its stamp holds the key it was made with.
current() { [ -f "$dml/stamps/$1" ] && [ "$(cat "$dml/stamps/$1")" = "$2" ]; }
stamp() { mkdir -p "$dml/stamps" && echo "$2" > "$dml/stamps/$1"; }

apt_install() {  # apt_install PACKAGE...: the ones not installed yet, as root
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} = 0 ] && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        say "needs ${missing[*]} (apt-get as root)"; return 1
    fi
    say "installing ${missing[*]} with apt-get"
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || { say "apt-get could not install ${missing[*]}"; return 1; }
}

wheel() {
    local key=$DML_WHEEL_SHA256
    current wheel "$key" && [ -f "$dml/lib/libdirectml.so" ] && return 0
    local download=$dml/download/wheel python=python3
    [ -x .venv/bin/python ] && python=.venv/bin/python
    rm -rf "$download" && mkdir -p "$download" "$dml/lib"
    echo "torch-directml==$DML_WHEEL_VERSION --hash=sha256:$DML_WHEEL_SHA256" > "$download/requirements.txt"
    if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2010_x86_64 \
            --python-version 311 --require-hashes -r "$download/requirements.txt" -d "$download"; then
        say "pip could not fetch torch-directml==$DML_WHEEL_VERSION (no network?)"; return 1
    fi
    "$python" - "$download" "$dml/lib/libdirectml.so" <<'EOF' || { say "the wheel holds no libdirectml.so"; return 1; }
import glob, sys, zipfile
with zipfile.ZipFile(glob.glob(f"{sys.argv[1]}/torch_directml-*.whl")[0]) as wheel:
    with wheel.open("torch_directml/libdirectml.so") as src, open(sys.argv[2], "wb") as dst:
        dst.write(src.read())
EOF
    rm -rf "$download"
    stamp wheel "$key"
}

# apt-get download against a private source list and state: the system's sources and packages stay untouched.
private_download() {  # private_download SUITE DESTINATION PACKAGE...; its logs in .directml/apt/SUITE/
    local suite=$1 destination=$2; shift 2
    local dir=$PWD/$dml/apt/$suite
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$destination"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
        > "$dir/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
                -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o "Dir::State::Status=/dev/null"
                -o "Debug::NoLocking=1" -o "APT::Architecture=amd64" -o "APT::Get::List-Cleanup=0"
                -o "APT::Sandbox::User=root")
    apt-get "${opts[@]}" update -qq >"$dir/update.log" 2>&1 \
        && (cd "$destination" && apt-get "${opts[@]}" download "$@" >"$dir/download.log" 2>&1) \
        && rm -rf "$dir/lists" "$dir/cache"
}

lavapipe() {
    local key
    key=$(echo "$BACKPORTS_PACKAGES" | key_of)
    if ! current lavapipe "$key" || [ ! -f "$dml/lvp_icd.json" ]; then
        local download=$dml/download/backports
        rm -rf "$download" "$dml/mesa" && mkdir -p "$download" "$dml/mesa"
        # shellcheck disable=SC2086
        if ! private_download bookworm-backports "$download" $BACKPORTS_PACKAGES; then
            say "apt-get could not fetch lavapipe from bookworm-backports (see $dml/apt/bookworm-backports/*.log)"
            return 1
        fi
        local deb
        for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$dml/mesa"; done
        # What the five need from Debian 12 itself (libLLVM 15, libxcb, ...): their Depends, less the five.
        for deb in "$download"/*.deb; do dpkg-deb -f "$deb" Depends; done | tr ',' '\n' | sed 's/[|(].*//; s/ //g' \
            | grep -v -x -e '' -e mesa-libgallium -e libdrm2 -e libdrm-amdgpu1 -e libdrm-common | sort -u \
            > "$dml/mesa/runtime-packages.txt"
        (cd "$download" && ls ./*.deb) | sed 's|^\./||' > "$dml/mesa/packages.txt"
        rm -rf "$download"
        # Only lavapipe is kept of the drivers and layers the packages hold. Its ICD file names the library
        # relatively; the copy the worker's VK_ICD_FILENAMES points to names the unpacked one by absolute path.
        local lib=$dml/mesa/usr/lib/x86_64-linux-gnu
        rm -rf "$dml"/mesa/usr/share/doc "$lib"/libVkLayer_* \
            $(ls "$lib"/libvulkan_*.so | grep -v /libvulkan_lvp.so)
        sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$PWD/$lib/libvulkan_lvp.so\"|" \
            "$dml/mesa/usr/share/vulkan/icd.d/lvp_icd.json" > "$dml/lvp_icd.json"
        stamp lavapipe "$key"
    fi
    # shellcheck disable=SC2046
    apt_install $(cat "$dml/mesa/runtime-packages.txt") || return 1
}

vkd3d_proton_source() {  # unpacks or clones the pinned source into $1 as a git repository (meson runs git describe)
    local src=$1 tarball=$vendor/$VKD3D_PROTON_TARBALL
    rm -rf "$src" && mkdir -p "$src"
    if [ -f "$tarball" ]; then
        if [ "$(sha256sum < "$tarball" | cut -d' ' -f1)" != "$VKD3D_PROTON_SHA256" ]; then
            say "$tarball is not the pinned one (sha256 $VKD3D_PROTON_SHA256)"; return 1
        fi
        tar -xJf "$tarball" -C "$src" --strip-components=1 || return 1
        git -C "$src" init -q && git -C "$src" add -A \
            && git -C "$src" -c user.name=setup_directml -c user.email=setup@localhost commit -qm "$VKD3D_PROTON_TARBALL" \
            && git -C "$src" tag "$VKD3D_PROTON_TAG" || return 1
        return 0
    fi
    say "$tarball not found: cloning $VKD3D_PROTON_REPO at $VKD3D_PROTON_TAG"
    if ! git clone -q --branch "$VKD3D_PROTON_TAG" "$VKD3D_PROTON_REPO" "$src" 2>"$dml/clone.log" \
        || ! git -C "$src" submodule update -q --init subprojects/dxil-spirv khronos/Vulkan-Headers \
            khronos/SPIRV-Headers 2>>"$dml/clone.log" \
        || ! git -C "$src/subprojects/dxil-spirv" submodule update -q --init third_party/spirv-headers \
            2>>"$dml/clone.log"; then
        say "could not clone vkd3d-proton (no network? see $dml/clone.log)"; return 1
    fi
    local path commit
    while read -r path commit; do
        if [ "$(git -C "$src/$path" rev-parse HEAD)" != "$commit" ]; then
            say "the clone's $path is not at the pinned $commit"; return 1
        fi
    done <<< "$VKD3D_PROTON_SUBMODULES"
}

vkd3d_proton() {
    local key
    key=$(echo "$VKD3D_PROTON_TAG $VKD3D_PROTON_SHA256 $VKD3D_PROTON_SUBMODULES" | key_of)
    current vkd3d-proton "$key" && [ -f "$dml/vkd3d-proton/lib/libvkd3d-proton-d3d12core.so" ] && return 0
    apt_install $BUILD_PACKAGES || return 1
    local work=$dml/build tools=$dml/build/tools
    rm -rf "$work" "$dml/vkd3d-proton" && mkdir -p "$tools"
    if ! private_download bookworm "$tools" wine64-tools; then
        say "apt-get could not fetch wine64-tools for widl (see $dml/apt/bookworm/*.log)"; return 1
    fi
    dpkg-deb -x "$tools"/wine64-tools_*.deb "$tools/root" && ln -s "$PWD/$tools/root/usr/lib/wine/widl" "$tools/widl"
    vkd3d_proton_source "$work/src" || return 1
    say "building vkd3d-proton $VKD3D_PROTON_TAG (a few minutes, once)"
    if ! (cd "$work/src" && PATH="$PWD/../tools:$PATH" meson setup build --buildtype=release >"../meson.log" 2>&1 \
            && ninja -C build libs/d3d12/libvkd3d-proton-d3d12.so libs/d3d12core/libvkd3d-proton-d3d12core.so \
                >"../ninja.log" 2>&1); then
        mkdir -p "$dml/logs" && cp "$work"/*.log "$dml/logs/"
        say "vkd3d-proton did not build (see $dml/logs/meson.log and ninja.log)"; return 1
    fi
    # What the bridge and the runner need: the two libraries, the public headers and the ones widl generated.
    local out=$dml/vkd3d-proton
    mkdir -p "$out/lib" "$out/include"
    cp "$work"/src/build/libs/d3d12/libvkd3d-proton-d3d12.so "$work"/src/build/libs/d3d12core/libvkd3d-proton-d3d12core.so \
        "$out/lib/"
    cp "$work"/src/include/*.h "$work"/src/build/libs/vkd3d-common/libvkd3d_common.a.p/*.h \
        "$work"/src/build/vkd3d_version.h "$out/include/"
    cp -r "$work"/src/khronos/Vulkan-Headers/include/vulkan "$work"/src/khronos/Vulkan-Headers/include/vk_video \
        "$out/include/"
    rm -rf "$work"
    stamp vkd3d-proton "$key"
}

bridge() {
    local key
    key=$(cat "$dml/stamps/vkd3d-proton" native/directml/* | key_of)
    current bridge "$key" && [ -f "$dml/lib/libdmlrun.so" ] && return 0
    apt_install gcc libc6-dev || return 1
    local python=python3 include="-Inative/directml -I$dml/vkd3d-proton/include"
    [ -x .venv/bin/python ] && python=.venv/bin/python
    mkdir -p "$dml/lib" "$dml/logs"
    cp "$dml"/vkd3d-proton/lib/*.so "$dml/lib/"
    if ! { "$python" native/directml/gen_bridge.py "$dml/vkd3d-proton/include" "$dml/bridge_gen.c" \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libd3d12.so" $include native/directml/bridge.c \
            "$dml/bridge_gen.c" -ldl -lpthread -Wl,--version-script=native/directml/d3d12.map \
            -Wl,-soname,libd3d12.so \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libdxcore.so" native/directml/dxcore.c -Wl,-soname,libdxcore.so \
        && gcc -shared -fPIC -O2 -Wall -o "$dml/lib/libdmlrun.so" $include native/directml/dmlrun.c \
            -L"$dml/lib" -l:libd3d12.so -l:libdxcore.so -l:libvkd3d-proton-d3d12.so -l:libvulkan.so.1 -ldl \
            -Wl,-rpath,'$ORIGIN'; } 2>"$dml/logs/bridge.log"; then
        say "the bridge did not build (see $dml/logs/bridge.log)"; return 1
    fi
    stamp bridge "$key"
}

directml_setup() {
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
        say "DirectML's Linux build is x86-64 Linux only; skipped on $(uname -s)-$(uname -m)"; return 0
    fi
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
        say "needs Debian's apt-get and dpkg-deb; DirectML skipped, the cross-check runs on ONNX Runtime"; return 0
    fi
    local started=$SECONDS
    rm -f "$dml/ready"
    if wheel && lavapipe && vkd3d_proton && bridge; then
        cat "$dml"/stamps/* | key_of > "$dml/ready"
        [ $((SECONDS - started)) -gt 2 ] && say "ready in $((SECONDS - started)) s ($(du -sh "$dml" | cut -f1) in $dml)"
    else
        say "DirectML skipped; the cross-check runs on ONNX Runtime"
    fi
    return 0
}

directml_setup
