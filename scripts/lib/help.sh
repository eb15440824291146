# scripts/lib/help.sh - sourced first by the suite's scripts, before they do
# anything: when the first argument is -h or --help, prints the script's
# header comment (the comment lines after the #! line, without their "# "),
# which starts with its usage, and exits 0. POSIX sh, for the sh scripts too.
#   . "$(dirname "$0")/lib/help.sh"
case "${1-}" in
  -h | --help)
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
    exit 0 ;;
esac
