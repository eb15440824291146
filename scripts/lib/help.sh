# scripts/lib/help.sh - sourced first by the suite's scripts, before they do
# anything: when the first argument is -h or --help, prints the script's
# header comment (the comment lines after the #! line, without their "# "),
# which starts with its usage, and exits 0 (a script with a usage text of its
# own sets OP2_HELP_OWN_USAGE=1 before sourcing, and answers --help itself);
# when it is --version, prints the
# script's name, the suite's version and the commit of the checkout it is in
# (read from the files, without git), and exits 0. POSIX sh, for the sh
# scripts too.
#   . "$(dirname "$0")/lib/help.sh"
case "${1-}" in
  -h | --help)
    if [ -z "${OP2_HELP_OWN_USAGE-}" ]; then
      awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
      exit 0
    fi ;;
  --version)
    # The source tree: the first folder above the script whose CMakeLists.txt
    # declares the suite's project.
    _op2_root=$(cd "$(dirname "$0")" && pwd)
    while [ "$_op2_root" != / ] && ! grep -qs '^project(op2suite ' "$_op2_root/CMakeLists.txt"; do
      _op2_root=$(dirname "$_op2_root")
    done
    _op2_version=$(sed -n 's/^project(op2suite VERSION \([0-9.]*\).*/\1/p' \
                     "$_op2_root/CMakeLists.txt" 2>/dev/null)
    # The commit: .git's HEAD, through a worktree's gitdir and packed refs.
    _op2_git=$_op2_root/.git
    [ -f "$_op2_git" ] && _op2_git=$(sed -n 's/^gitdir: //p' "$_op2_git")
    _op2_commit=unknown
    if [ -f "$_op2_git/HEAD" ]; then
      _op2_head=$(cat "$_op2_git/HEAD")
      _op2_common=$_op2_git
      [ -f "$_op2_git/commondir" ] && _op2_common=$_op2_git/$(cat "$_op2_git/commondir")
      case "$_op2_head" in
        "ref: "*)
          _op2_ref=${_op2_head#ref: }
          if [ -f "$_op2_git/$_op2_ref" ]; then _op2_commit=$(cat "$_op2_git/$_op2_ref")
          elif [ -f "$_op2_common/$_op2_ref" ]; then _op2_commit=$(cat "$_op2_common/$_op2_ref")
          else
            _op2_commit=$(awk -v r="$_op2_ref" '$2 == r { print $1 }' \
                            "$_op2_common/packed-refs" 2>/dev/null)
          fi ;;
        *) _op2_commit=$_op2_head ;;
      esac
    fi
    echo "$(basename "$0") (op2suite ${_op2_version:-unknown}, commit ${_op2_commit:-unknown})"
    exit 0 ;;
esac
