/* op_version.h - the suite's version and the commit a program was built
 * from, for the --version of every program (docs/developing.md). */
#ifndef OP_VERSION_H
#define OP_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The suite's version ("0.1"), from the project's CMakeLists.txt. */
const char *op_suite_version(void);
/* The git commit of the sources built ("unknown" outside a git checkout). */
const char *op_suite_commit(void);
/* 1 when tracked files differed from that commit at build time. */
int op_suite_commit_dirty(void);
/* Prints "PROGRAM (op2suite VERSION, commit COMMIT[+dirty])" on stdout. */
void op_print_version(const char *program);
/* 1 when argv holds --version among its arguments (so that a program answers
 * it before reading any other argument), 0 otherwise. */
int op_asks_version(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
