#!/usr/bin/env bash
# `cmake --install` as a cluster user meets it (issue 41; docs/install.md):
#  1. the build installs into a temporary prefix: bin/granite, the library and its headers, the
#     CMake package (config, version file, exported targets), configs, scripts, cluster kit,
#     docs and the Lmod modulefile share/modulefiles/granite/VERSION.lua;
#  2. in a clean shell (env -i, no profile) with Debian's Lmod: `module use PREFIX/share/modulefiles`
#     and `module load granite` put the installed granite first on PATH and set GRANITE_ROOT,
#     CMAKE_PREFIX_PATH and PYTHONPATH; `granite --version` names this version; a short run of
#     share/granite/configs/obstacle_drop.yaml completes and the installed scripts
#     (/usr/bin/python3) read its record and its last snapshot; `module unload` takes it away;
#  3. examples/coupling is configured with find_package(Granite 0.1) through the module's
#     CMAKE_PREFIX_PATH only, built and run; its rest positions are checked here against the
#     analytic ones (sphere k of the row at the wall: x = (2k + 1) r, z = r), within the steady
#     penetration a hard contact can keep, N a dt^2 / error_reduction (see main.cpp), and its
#     contact forces against the weight less buoyancy and the drag sums to 1e-6 relative.
# usage: install_test.sh BUILD_DIR SOURCE_DIR VERSION
set -u
build=$(readlink -f "$1"); src=$(readlink -f "$2"); version=$3
tmp=$(mktemp -d /tmp/granite-install.XXXXXX); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
prefix=$tmp/prefix

lmod_init=/usr/share/lmod/lmod/init/bash
if [ ! -f "$lmod_init" ]; then
  echo "FAIL: Lmod is not installed ($lmod_init missing; Debian: apt-get install lmod)"
  exit 1
fi

# --- 1. install ---------------------------------------------------------------------------------
start=$(date +%s.%N)
if ! cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1; then
  fail "cmake --install failed: $(tail -5 "$tmp/install.log")"
  exit 1
fi
pass "cmake --install: $(grep -c 'Installing:' "$tmp/install.log") files in $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }") s"
for f in bin/granite lib/cmake/Granite/GraniteConfig.cmake lib/cmake/Granite/GraniteConfigVersion.cmake \
         lib/cmake/Granite/GraniteTargets.cmake include/granite/timestep/simulation.hpp \
         share/granite/configs/obstacle_drop.yaml share/granite/scripts/granite_io.py \
         share/granite/scripts/run_info.py share/granite/scripts/read_snapshot.py \
         share/granite/cluster/make_job.py share/doc/granite/install.md \
         "share/modulefiles/granite/$version.lua"; do
  [ -e "$prefix/$f" ] || fail "not installed: PREFIX/$f"
done
[ -x "$prefix/share/granite/scripts/run_info.py" ] || fail "PREFIX/share/granite/scripts/run_info.py is not executable"
[ -e "$prefix/share/granite/scripts/check_architecture.py" ] && fail "the development check check_architecture.py was installed"
grep -q "\"$prefix\"" "$prefix/share/modulefiles/granite/$version.lua" ||
  fail "the modulefile does not name the prefix $prefix"

# --- 2. module load in a clean shell; granite --version, a short run, the scripts ----------------
# Only what a login shell has: HOME, a system PATH, and OpenMPI's permission to run as root.
clean() {
  env -i HOME="$tmp" PATH=/usr/bin:/bin LANG=C.UTF-8 \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
    OMPI_MCA_btl_vader_single_copy_mechanism=none \
    bash --noprofile --norc -c "source $lmod_init; $1"
}
clean "set -e
  module use '$prefix/share/modulefiles'
  module load granite
  echo \"which=\$(command -v granite)\"
  echo \"GRANITE_ROOT=\$GRANITE_ROOT\"
  echo \"CMAKE_PREFIX_PATH=\$CMAKE_PREFIX_PATH\"
  echo \"PYTHONPATH=\$PYTHONPATH\"
  echo \"loader=\$(cd / && /usr/bin/python3 -c 'import granite_io; print(granite_io.__file__)')\"
  granite --version > '$tmp/version.out'
  cd '$tmp'
  granite run \"\$GRANITE_ROOT/share/granite/configs/obstacle_drop.yaml\" --output '$tmp/run' \
    --set run.end_time=0.01 --quiet > '$tmp/run.log' 2>&1
  /usr/bin/python3 \"\$GRANITE_ROOT/share/granite/scripts/run_info.py\" '$tmp/run' status steps.last \
    > '$tmp/run_info.out'
  /usr/bin/python3 \"\$GRANITE_ROOT/share/granite/scripts/read_snapshot.py\" \
    '$tmp/run/snapshot_00000050.h5' > '$tmp/read_snapshot.out'
  module unload granite
  echo \"after_unload=\$(command -v granite || echo none)\"
" > "$tmp/module.out" 2> "$tmp/module.err"
status=$?
if [ $status -ne 0 ]; then
  fail "module load / run / scripts in a clean shell: exit $status"
  sed 's/^/    /' "$tmp/module.out" "$tmp/module.err" | tail -15
  tail -5 "$tmp/run.log" 2>/dev/null | sed 's/^/    run: /'
fi
field() { sed -n "s/^$1=//p" "$tmp/module.out"; }
[ "$(field which)" = "$prefix/bin/granite" ] && pass "module load granite: granite is $prefix/bin/granite" ||
  fail "module load granite: granite is '$(field which)', expected $prefix/bin/granite"
[ "$(field GRANITE_ROOT)" = "$prefix" ] || fail "GRANITE_ROOT='$(field GRANITE_ROOT)', expected $prefix"
[ "$(field CMAKE_PREFIX_PATH)" = "$prefix" ] || fail "CMAKE_PREFIX_PATH='$(field CMAKE_PREFIX_PATH)', expected $prefix"
[ "$(field PYTHONPATH)" = "$prefix/share/granite/scripts" ] || fail "PYTHONPATH='$(field PYTHONPATH)'"
[ "$(field loader)" = "$prefix/share/granite/scripts/granite_io.py" ] && pass "import granite_io from anywhere: the installed loader" ||
  fail "import granite_io found '$(field loader)'"
[ "$(field after_unload)" = none ] && pass "module unload granite: no granite on PATH" ||
  fail "after module unload, granite is still '$(field after_unload)'"
if head -1 "$tmp/version.out" 2>/dev/null | grep -q "^granite $version\( \|$\)"; then
  pass "granite --version: $(head -1 "$tmp/version.out")"
else
  fail "granite --version: expected a first line 'granite $version', got '$(head -1 "$tmp/version.out" 2>/dev/null)'"
fi
# obstacle_drop: 2904 spheres, dt 2e-4 s, to 0.01 s: 50 steps; none leaves the box so early.
if [ "$(cat "$tmp/run_info.out" 2>/dev/null | tr '\n' ' ')" = "completed 50 " ]; then
  pass "installed obstacle_drop.yaml to 0.01 s: completed, 50 steps (run_info.py)"
else
  fail "run_info.py on the run: expected 'completed 50', got '$(tr '\n' ' ' < "$tmp/run_info.out" 2>/dev/null)'"
fi
if grep -q "^particles *2904$" "$tmp/read_snapshot.out" 2>/dev/null && grep -q "^step *50$" "$tmp/read_snapshot.out"; then
  pass "read_snapshot.py on the last snapshot: 2904 particles at step 50"
else
  fail "read_snapshot.py: expected 2904 particles at step 50, got: $(tr '\n' ';' < "$tmp/read_snapshot.out" 2>/dev/null)"
fi

# --- 3. a coupling code against the installed package ---------------------------------------------
clean "set -e
  module use '$prefix/share/modulefiles'
  module load granite
  cmake -S '$src/examples/coupling' -B '$tmp/coupling' -DCMAKE_BUILD_TYPE=Release
  cmake --build '$tmp/coupling'
" > "$tmp/coupling_build.log" 2>&1
if [ $? -ne 0 ]; then
  fail "examples/coupling: configure/build against the installed Granite failed"
  tail -15 "$tmp/coupling_build.log" | sed 's/^/    /'
else
  pass "examples/coupling: built with find_package(Granite) from the module's CMAKE_PREFIX_PATH"
  grep -q "^Granite_DIR:PATH=$prefix/lib/cmake/Granite$" "$tmp/coupling/CMakeCache.txt" ||
    fail "examples/coupling found Granite elsewhere: $(grep Granite_DIR "$tmp/coupling/CMakeCache.txt")"
  env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    "$tmp/coupling/granite_coupling" > "$tmp/coupling.out" 2> "$tmp/coupling.err"
  status=$?
  sed 's/^/    /' "$tmp/coupling.out" "$tmp/coupling.err"
  [ $status -eq 0 ] || fail "granite_coupling exited with $status"
  # The analytic values, independently of the program's own check.
  /usr/bin/python3 - "$tmp/coupling.out" <<'PY' || fail "the coupling example's numbers differ from the analytic values"
import math, re, sys
r, rho_s, rho_f, mu, u, g, dt, eps, n = 1e-3, 2500.0, 1000.0, 0.05, 0.05, 9.81, 1e-4, 0.2, 3
volume = 4 / 3 * math.pi * r**3
mass, drag = rho_s * volume, 6 * math.pi * mu * r * u
weight = (rho_s - rho_f) * volume * g
tol_x = n * math.hypot(drag, weight) / mass * dt**2 / eps
expected = {}
for k in range(n):
    expected[f"rest sphere {k} x (m)"] = ((2 * k + 1) * r, tol_x)
    expected[f"rest sphere {k} z (m)"] = (r, tol_x)
    expected[f"floor on sphere {k} (N)"] = (weight, 1e-6 * weight)
expected["wall on sphere 0 (N)"] = (n * drag, 1e-6 * n * drag)
for k in range(n - 1):
    expected[f"sphere {k} on sphere {k + 1} (N)"] = ((n - 1 - k) * drag, 1e-6 * (n - 1 - k) * drag)
seen, bad = set(), 0
for line in open(sys.argv[1]):
    m = re.match(r"^(.*?\)) +(\S+) +analytic", line)
    if not m or m.group(1) not in expected:
        continue
    value, (want, tol) = float(m.group(2)), expected[m.group(1)]
    seen.add(m.group(1))
    if not abs(value - want) <= tol:
        print(f"FAIL: {m.group(1)} = {value!r}, analytic {want!r} +- {tol:.3g}")
        bad += 1
for name in sorted(set(expected) - seen):
    print(f"FAIL: no line '{name}' in the output")
    bad += 1
print(f"{len(seen) - bad} of {len(expected)} values within tolerance (positions +- {tol_x:.3g} m)")
sys.exit(1 if bad else 0)
PY
fi

if [ $failures -eq 0 ]; then echo "PASS: install, module, run, scripts and coupling example"; exit 0; fi
echo "$failures failure(s)"; exit 1
