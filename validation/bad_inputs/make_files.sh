#!/usr/bin/env bash
# The bad files the cases of cases.txt read, made in $T from good ones
# (run.sh sets $T and the program paths).
set -eu
cd "$T"
# Bytes that look random but are the same on every run: garbage to read.
garbage() { python3 -c "import random, sys; r = random.Random($2); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range($1)))"; }

# ---- meshes: the I=20, J=12 C-mesh, ASCII and HDF5, then broken copies ----
"$NACA" -I 20 -J 12 -o mesh.dat
"$CONVERT" mesh.dat mesh.h5
read -r nnode ncell nedge nbedge <mesh.dat
node1=2 cell1=$((2 + nnode)) edge1=$((2 + nnode + ncell)) bedge1=$((2 + nnode + ncell + nedge))
last=$((1 + nnode + ncell + nedge + nbedge))
line() { sed -n "${1}p" mesh.dat; }
put() { # put FILE LINE TEXT: mesh.dat with LINE replaced
  awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' mesh.dat >"$1"
}
head -n $((last - 3)) mesh.dat >m_truncated.dat
head -c $(($(wc -c <mesh.dat) - 7)) mesh.dat >m_cut.dat
put m_header3.dat 1 "$nnode $ncell $nedge"
put m_header_neg.dat 1 "$nnode -5 $nedge $nbedge"
put m_header_huge.dat 1 "$nnode $ncell $nedge 99999999999999"
put m_header_big.dat 1 "$nnode 500000000 $nedge $nbedge"
# The same header in a file long enough to hold its 500 million cells: all but the mesh a hole
# (sparse, no disk used), so the memory estimate believes it and refuses before reading.
put m_big_sparse.dat 1 "$nnode 500000000 $nedge $nbedge"
truncate -s 4000100000 m_big_sparse.dat
put m_header_text.dat 1 "nodes cells edges bedges"
put m_nan.dat $((node1 + 3)) "0.5 nan"
put m_inf.dat $((node1 + 3)) "1e999 0.5"
put m_hex.dat $((node1 + 3)) "0x1p3 0.5"
put m_node3.dat $((node1 + 3)) "0.5 0.5 0.5"
put m_cellfloat.dat $((cell1 + 1)) "0 1 2.0 3"
put m_cellrange.dat $((cell1 + 1)) "0 1 $nnode 3"
put m_cellneg.dat $((cell1 + 1)) "0 -1 2 3"
put m_edgeself.dat $((edge1 + 3)) "0 1 5 5"
put m_edgerange.dat $((edge1 + 3)) "0 1 0 $ncell"
put m_flag3.dat $((bedge1 + 1)) "$(line $((bedge1 + 1)) | awk '{print $1, $2, $3, 3}')"
put m_flag0.dat $((bedge1 + 1)) "$(line $((bedge1 + 1)) | awk '{print $1, $2, $3, 0}')"
cp mesh.dat m_trailing.dat
printf '1 2 3 4\n' >>m_trailing.dat
e=$((edge1 + 100))
put m_swapped_edge.dat $e "$(line $e | awk '{print $2, $1, $3, $4}')"
put m_swapped_cells.dat $e "$(line $e | awk '{print $1, $2, $4, $3}')"
c=$((cell1 + 70))
put m_moved_cell.dat $c "$(line $c | awk '{print $1+1, $2+1, $3+1, $4+1}')"
put m_clockwise.dat $c "$(line $c | awk '{print $4, $3, $2, $1}')"
b=$((bedge1 + 30))
put m_bedge_swapped.dat $b "$(line $b | awk '{print $2, $1, $3, $4}')"
put m_far_node.dat $((node1 + 40)) "1000.0 1000.0"
scale() { # scale FILE FACTOR: mesh.dat with every coordinate multiplied by FACTOR
  awk -v a="$node1" -v b="$((cell1 - 1))" -v f="$2" \
    'NR >= a && NR <= b { printf "%.17g %.17g\n", $1 * f, $2 * f; next } { print }' mesh.dat >"$1"
}
scale m_scaled_up.dat 1e200
scale m_scaled_down.dat 1e-300
# The same mesh with cells 0 and 1 numbered the other way round: the same counts, consistent,
# another numbering (a checkpoint of mesh.dat must not restart on it).
awk -v c0="$cell1" -v e0="$edge1" -v b0="$bedge1" -v last="$last" '
  function sw(v) { return v == 0 ? 1 : v == 1 ? 0 : v }
  NR == c0 { hold = $0; next }
  NR == c0 + 1 { print; print hold; next }
  NR >= e0 && NR < b0 { print $1, $2, sw($3), sw($4); next }
  NR >= b0 && NR <= last { print $1, $2, sw($3), $4; next }
  { print }' mesh.dat >m_renumbered.dat
awk 'NR == 1 { print; next } { printf "%s\r\n", $0 }' mesh.dat >m_crlf.dat
{ head -c 3000 mesh.dat; garbage 100 1; } >m_binary.dat
{ echo "$nnode $ncell $nedge $nbedge"; head -c 10000 /dev/zero | tr '\0' '1'; echo; } >m_longline.dat
: >m_empty.dat
for f in swapped_edge moved_cell flag7 nan_coordinate missing_map short_map map_range bad_type; do
  cp mesh.h5 "h_$f.h5"
done
"$TAMPER" h_swapped_edge.h5 swap pedge 200 201
for k in 0 1 2 3; do
  v=$(line $((c)) | awk -v k=$((k + 1)) '{print $k + 1}')
  "$TAMPER" h_moved_cell.h5 int pcell $((280 + k)) "$v"
done
"$TAMPER" h_flag7.h5 int p_bound 5 7
"$TAMPER" h_map_range.h5 int pecell 10 999999
cp mesh.h5 h_not_h5.h5 && printf 'not an HDF5 file\n' >h_not_h5.h5
head -c 2000 mesh.h5 >h_truncated.h5
# No boundary edges: the set empty, its maps and dat of no rows.
cp mesh.h5 h_nobedges.h5 && "$TAMPER" h_nobedges.h5 int bedges 0 0 &&
  for d in pbedge pbecell p_bound; do "$TAMPER" h_nobedges.h5 empty "$d"; done

# ---- checkpoints: a good one, then changed attributes -------------------------
"$AIRFOIL" mesh=mesh.dat iterations=20 checkpoint_every=10 print_every=100 output_dir=ck >/dev/null
for spec in "nan double nan" "huge double 1e300" "intmax double 2147483647" "negative double -5" \
            "fraction double 5.7" "past double 30" "inf double inf"; do
  set -- $spec
  cp ck/checkpoint.h5 "c_$1.h5"
  "$TAMPER" "c_$1.h5" attr /checkpoint/scalars iteration "$2" "$3"
done
cp ck/checkpoint.h5 c_ndats.h5 && "$TAMPER" c_ndats.h5 attr /checkpoint ndats int 2
cp ck/checkpoint.h5 c_dim.h5 && "$TAMPER" c_dim.h5 attr /p_q dim int 3
cp ck/checkpoint.h5 c_type.h5 && "$TAMPER" c_type.h5 attr /p_q type string float
cp ck/checkpoint.h5 c_version.h5 && "$TAMPER" c_version.h5 attr /checkpoint version int 2
cp ck/checkpoint.h5 c_format.h5 && "$TAMPER" c_format.h5 attr /checkpoint format string other
cp mesh.h5 c_not_checkpoint.h5
cp ck/checkpoint.h5 c_other_mesh.h5 && "$TAMPER" c_other_mesh.h5 attr /checkpoint mesh string "cells 720, nodes 793, edges 1388, bedges 104; hash 0123456789abcdef"
cp ck/checkpoint.h5 c_no_mesh.h5 && "$TAMPER" c_no_mesh.h5 delattr /checkpoint mesh
cp ck/checkpoint.h5 c_q_nan.h5 && "$TAMPER" c_q_nan.h5 double p_q 402 nan
"$NACA" -I 10 -J 6 -o mesh_small.dat

# ---- decks -------------------------------------------------------------------------
printf 'iterations = 5\niterations = 6\n' >d_duplicate.in
printf 'iteratons = 5\n' >d_typo.in
printf 'iterations = 5x\n' >d_badint.in
printf 'iterations = 1.5\n' >d_float.in
printf 'iterations = 99999999999\n' >d_overflow.in
printf 'iterations = 0\n' >d_range.in
printf 'iterations\n' >d_noeq.in
printf '= 5\n' >d_nokey.in
printf 'iterations =\n' >d_novalue.in
printf 'output_dir = "unterminated\n' >d_quote.in
printf 'output_dir = "a" b\n' >d_afterquote.in
printf 'write_solution = maybe\n' >d_bool.in
printf '\xef\xbb\xbfiterations = 5\r\nprint_every = 5\r\n' >d_bom_crlf.in
garbage 300 2 >d_random.in
printf '\x1b[2J\x1b]0;title\x07 = 1\n' >d_escape.in
printf 'iterations = 5\0\n' >d_nul.in
{ printf 'output_dir = "'; head -c 20000 /dev/zero | tr '\0' 'x'; printf '"\n'; } >d_longline.in
for k in $(seq 1 40000); do echo "# padding line $k of a deck that is far too large"; done >d_huge.in
cp mesh.dat d_mesh_as_deck.in

# ---- Matrix Market ------------------------------------------------------------------
mm='%%MatrixMarket matrix coordinate real general'
printf '%s\n3 3 3\n1 1 2\n2 2 2\n3 3 2\n' "$mm" >x_good.mtx
printf 'hello\n3 3 3\n' >x_nobanner.mtx
printf '%%%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n' >x_array.mtx
printf '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n' >x_complex.mtx
printf '%%%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n' >x_hermitian.mtx
printf '%%%%MatrixMarket vector coordinate real general\n1 1 1\n1 1 1\n' >x_vector.mtx
printf '%s\n' "$mm" >x_nosize.mtx
printf '%s\n3 3\n' "$mm" >x_size2.mtx
printf '%s\n0 0 0\n' "$mm" >x_zero.mtx
printf '%s\n3 3 -1\n' "$mm" >x_negnnz.mtx
printf '%s\n99999999999 99999999999 1\n' "$mm" >x_hugesize.mtx
printf '%s\n2 2 3\n1 1 2\n2 2 2\n' "$mm" >x_short.mtx
printf '%s\n2 2 1\n1 1 2\n2 2 2\n' "$mm" >x_extra.mtx
printf '%s\n2 2 2\n1 1 2\n3 3 2\n' "$mm" >x_rowrange.mtx
printf '%s\n2 2 2\n1 1 2\n0 2 2\n' "$mm" >x_zeroindex.mtx
printf '%s\n2 2 2\n1 1 2\n2 2 nan\n' "$mm" >x_nan.mtx
printf '%s\n2 2 2\n1 1 2\n2 2 1e999\n' "$mm" >x_overflow.mtx
printf '%s\n2 2 2\n1 1 2\n2 2\n' "$mm" >x_twofields.mtx
printf '%s\n2 2 2\n1 1 2\n2 2 0\n' "$mm" >x_zerodiag.mtx
printf '%s\n2 2 2\n1 1 2\n2 2 1e-310\n' "$mm" >x_subnormal_diag.mtx
printf '%s\n2 2 2\n1 1 0x10\n2 2 2\n' "$mm" >x_hex.mtx
printf '%s\n1 1 1\n1 1 2\n' "$mm" >x_one.mtx
printf '%s\n2 2 3\n1 1 2\n2 2 5e-308\n2 2 -4e-308\n' "$mm" >x_subnormal_sum.mtx
printf '%s\n2 2 1\n1 1 2\n' "$mm" >x_nodiag.mtx
printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 2 1\n2 2 2\n' >x_upper.mtx
printf '%s\n2 2 4\n1 1 1\n1 2 3\n2 1 3\n2 2 1\n' "$mm" >x_diverge.mtx
{ printf '%s\n' "$mm"; head -c 100000 /dev/zero | tr '\0' '1'; printf '\n'; } >x_longline.mtx
{ printf '%s\n' "$mm"; for k in $(seq 1 500000); do echo "% a comment line that goes on and on"; done; } >x_comments.mtx
{ head -c 200 x_good.mtx; garbage 64 3; } >x_binary.mtx
printf '1\n2\n' >r_short.txt
printf '1\n2\nx\n' >r_bad.txt
printf '1\n2\n3\n4\n' >r_long.txt
printf '1 2\n3\n4\n' >r_two.txt
printf '1\nnan\n3\n' >r_nan.txt
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >r_array_short.mtx

# ---- tune files ------------------------------------------------------------------------
printf 'res_calc staged 4294967328 256 0.1\n' >t_block_wrap.tune
printf 'res_calc staged 128 99999999999 0.1\n' >t_part_wrap.tune
printf 'res_calc staged 128 2147483647 0.1\n' >t_part_max.tune
printf 'res_calc atomic 64 0 nan\n' >t_nan.tune
printf 'res_calc atomic 64 0 -1\n' >t_negative.tune
printf 'res_calc warp 64 0\n' >t_strategy.tune
printf 'res_calc atomic 48 0\n' >t_block48.tune
printf 'res_calc atomic 64 0 1.0 maybe\n' >t_tag.tune
printf 'res_calc atomic 64\n' >t_short.tune
printf '\357\273\277res_calc atomic 64 0 1.5\n' >t_bom.tune
garbage 200 4 >t_random.tune
{ head -c 5000 /dev/zero | tr '\0' 'x'; echo; } >t_longline.tune

# ---- special files: named pipes nothing writes into (opening one to read waits for a writer) ----
for f in fifo.dat fifo.h5 fifo.in fifo.mtx fifo.txt fifo.tune; do
  rm -f "$f" && mkfifo "$f"
done

# ---- outputs -------------------------------------------------------------------------------
echo "a file" >not_a_dir
echo "made the bad files in $T"
