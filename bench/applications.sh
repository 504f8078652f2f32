# The applications the tracer's benchmarks run (run_application_benchmark.sh,
# run_export_benchmark.sh): one of Debian's packages on a small input of ours. Sourced by them.

# need PACKAGES FILE...: the Debian packages that provide the files (lammps is in
# scripts/install-deps.sh; the others are benchmark-only: apt-get install them).
need() {
  packages=$1
  shift
  for f in "$@"; do
    [ -e "$f" ] || { echo "$APP needs $f: apt-get install $packages" >&2; exit 1; }
  done
}

# application_input APP WORK: writes APP's input into WORK; sets CMD (the program and its
# arguments), NAME and RESULT (a grep pattern for the line that states the result, empty if the
# program prints none). (The body is not indented: its inputs are here-documents.)
application_input() {
APP=$1
WORK=$2
case $APP in
  lammps)
    need "lammps lammps-examples" /usr/bin/lmp /usr/share/lammps/examples/melt/in.melt
    # 5 times as many steps as the example, so that start-up is a small part of the run.
    sed 's/^run[[:space:]].*/run 1250/' /usr/share/lammps/examples/melt/in.melt > "$WORK/in.melt"
    CMD="lmp -in in.melt -log none -screen none"
    NAME="LAMMPS melt (1250 steps)"
    RESULT=""
    ;;
  qe)
    need quantum-espresso /usr/bin/pw.x /usr/share/espresso/pseudo/Si.pz-vbc.UPF
    cat > "$WORK/si8.in" <<'EOF'
&control
  calculation = 'scf', prefix = 'si8', pseudo_dir = '/usr/share/espresso/pseudo', outdir = './qe'
/
&system
  ibrav = 1, celldm(1) = 10.26, nat = 8, ntyp = 1, ecutwfc = 40.0
/
&electrons
  conv_thr = 1.0d-8
/
ATOMIC_SPECIES
  Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS crystal
  Si 0.00 0.00 0.00
  Si 0.50 0.50 0.00
  Si 0.50 0.00 0.50
  Si 0.00 0.50 0.50
  Si 0.25 0.25 0.25
  Si 0.75 0.75 0.25
  Si 0.75 0.25 0.75
  Si 0.25 0.75 0.75
K_POINTS automatic
  5 5 5 0 0 0
EOF
    CMD="pw.x -in si8.in"
    NAME="Quantum ESPRESSO pw.x (Si8 SCF)"
    RESULT="^!"
    ;;
  cp2k)
    need cp2k /usr/bin/cp2k.popt /usr/share/cp2k/BASIS_MOLOPT /usr/share/cp2k/GTH_POTENTIALS
    export CP2K_DATA_DIR=/usr/share/cp2k
    # 8 water molecules on a 2x2x2 grid, 3.1 A apart, in a 6.2 A box (about 1 g/cm^3).
    coords=$(awk 'BEGIN { for (i = 0; i < 2; i++) for (j = 0; j < 2; j++) for (k = 0; k < 2; k++) {
      x = 0.8 + 3.1 * i; y = 0.8 + 3.1 * j; z = 0.8 + 3.1 * k
      printf "      O %.3f %.3f %.3f\n      H %.3f %.3f %.3f\n      H %.3f %.3f %.3f\n",
             x, y, z, x + 0.757, y + 0.586, z, x - 0.757, y + 0.586, z } }')
    cat > "$WORK/h2o8.inp" <<EOF
&GLOBAL
  PROJECT h2o8
  RUN_TYPE ENERGY
  PRINT_LEVEL LOW
&END GLOBAL
&FORCE_EVAL
  METHOD Quickstep
  &DFT
    BASIS_SET_FILE_NAME BASIS_MOLOPT
    POTENTIAL_FILE_NAME GTH_POTENTIALS
    &MGRID
      CUTOFF 200
    &END MGRID
    &SCF
      SCF_GUESS ATOMIC
      MAX_SCF 20
      EPS_SCF 1.0E-5
      &OT
        MINIMIZER DIIS
        PRECONDITIONER FULL_SINGLE_INVERSE
      &END OT
    &END SCF
    &XC
      &XC_FUNCTIONAL PBE
      &END XC_FUNCTIONAL
    &END XC
  &END DFT
  &SUBSYS
    &CELL
      ABC 6.2 6.2 6.2
    &END CELL
    &COORD
$coords
    &END COORD
    &KIND H
      BASIS_SET DZVP-MOLOPT-SR-GTH
      POTENTIAL GTH-PBE-q1
    &END KIND
    &KIND O
      BASIS_SET DZVP-MOLOPT-SR-GTH
      POTENTIAL GTH-PBE-q6
    &END KIND
  &END SUBSYS
&END FORCE_EVAL
EOF
    CMD="cp2k.popt -i h2o8.inp"
    NAME="CP2K cp2k.popt (8 H2O energy)"
    RESULT="ENERGY| Total FORCE_EVAL"
    ;;
  *)
    echo "unknown application $APP (lammps, qe or cp2k)" >&2
    exit 2
    ;;
esac
}
