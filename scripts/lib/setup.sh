# Shared set-up of ./scripts/demo and ./scripts/test (sourced, not executed):
# install missing Debian packages, configure and build into build/ incrementally.
set -euo pipefail

GRANITE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GRANITE_BUILD=${GRANITE_BUILD:-$GRANITE_ROOT/build}

# Everything Granite needs, from Debian 12's own archive.
GRANITE_PACKAGES=(
  cmake g++ make pkg-config git
  libopenmpi-dev openmpi-bin
  libeigen3-dev libhdf5-openmpi-dev libyaml-cpp-dev libboost-program-options-dev
  nlohmann-json3-dev libgtest-dev libbenchmark-dev
  libqhull-dev  # convex hulls of the `convex` shapes
  python3 python3-h5py python3-numpy python3-matplotlib python3-yaml
  python3-paraview xvfb  # ParaView (pvbatch, XDMF reader; xvfb-run: a display for pvbatch)
  clang-format  # version 14: ctest format_check
  slurm-wlm munge
  lmod  # ctest install_end_to_end: `module load granite` from an installed prefix
)

# OpenMPI refuses to run as root without these; --oversubscribe is passed where needed.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

granite_install_packages() {
  local missing=()
  for p in "${GRANITE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: missing Debian packages; install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
  echo "== installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

granite_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  if [ ! -f "$GRANITE_BUILD/CMakeCache.txt" ]; then
    echo "== configuring into $GRANITE_BUILD"
    cmake -S "$GRANITE_ROOT" -B "$GRANITE_BUILD" -DCMAKE_BUILD_TYPE=Release -DGRANITE_WERROR=ON
  fi
  echo "== building ($jobs jobs)"
  cmake --build "$GRANITE_BUILD" -j "$jobs"
}
