# scripts/lib/mpi-wait.sh - how Open MPI's ranks wait for a message: polling
# (its default, fastest when each rank has a core) or yielding the core while
# they poll (mpi_yield_when_idle), which keeps a machine whose cores are shared
# with other work from stalling on a rank that has lost its core
# (docs/mpi.md, "Ranks on a busy machine"). Sourced, not run.

# mpi_yield_env PROCESSES: prints OMPI_MCA_mpi_yield_when_idle=1 when the
# PROCESSES (ranks, or ranks x threads) outnumber the cores the 1-minute load
# leaves free (with half a core of slack, as the OpenMP backend's rule:
# docs/op2-library.md, "Waiting threads"), and nothing otherwise or when the
# user has set the parameter (the user's setting wins). For `env`.
mpi_yield_env() {
  [ -n "${OMPI_MCA_mpi_yield_when_idle:-}" ] && return 0
  local cores load
  cores=$(nproc 2>/dev/null || echo 1)
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  if awk -v p="$1" -v c="$cores" -v l="$load" 'BEGIN { exit !(p > c || p > c - l + 0.5) }'; then
    echo OMPI_MCA_mpi_yield_when_idle=1
  fi
}
