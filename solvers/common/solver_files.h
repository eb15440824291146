/*
 * solver_files.h - the files of a run, as result.json lists them, so that the
 * results of one run are recognisable as one set (docs/result-json.md,
 * "files"): every file beside result.json, with its size and SHA-256, and
 * the files the run wrote elsewhere (airfoil's checkpoints in output_dir).
 */
#ifndef SOLVER_FILES_H
#define SOLVER_FILES_H

#include "result_json.h"

/* Writes the value of "files": an array of {"name", "bytes", "sha256"}, one
 * per regular file of dir (result.json itself, hidden names and temporaries
 * left out) sorted by name, then one per path of extra (files written
 * elsewhere that exist), named as given in extra_names (relative to dir).
 * A file that cannot be read gets "sha256": null. */
void solver_files_json(json_writer *w, const char *dir, const char *const *extra,
                       const char *const *extra_names, int nextra);

/* The names the "files" array of the result.json at path lists that are in
 * its own directory (no '/', not hidden, not ".."): a malloc'd array of
 * malloc'd names in *names (free with solver_files_free). Returns how many,
 * or -1 when there is no readable result.json with a "files" array (none, or
 * one written before result.json listed its files). */
int solver_files_listed(const char *path, char ***names);
void solver_files_free(char **names, int n);

/* 1 when name is one the run writes as a result (not hidden, not a
 * temporary, not result.json's own). */
int solver_files_is_result(const char *name);

#endif
