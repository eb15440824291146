#!/usr/bin/env python3
"""Whether the work tree's op2-gen writes, byte for byte, what a base
revision's op2-gen writes, for every application the build generates loop
code for: a check for changes to op2/generator that mean to change its code,
not its output.

usage: scripts/gen-identity.py [--base REF] [--build DIR] [--keep DIR]

  --base REF   the revision to compare with (default: main)
  --build DIR  a configured build tree (default: build/release); its
               build.ninja holds the op2-gen commands (cmake --preset release
               writes it; nothing needs to be built)
  --keep DIR   leave the two outputs in DIR/base and DIR/work (default: a
               temporary folder, removed)

Both generators are compiled here with the same compiler and flags: op2/generator
of REF (git archive) and that of the work tree, as it is on disk. Each op2-gen
command of the build is run with each of them, every backend asked for
(seq, openmp, cuda, offload: what a build without CUDA or offload would leave
out is compared too), each application into its own folder, over the same
sources (the work tree's). Exit 0 when `diff -r` finds no difference, 1 with
the differences shown, 2 on bad usage or a failed step.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ALL_BACKENDS = "seq,openmp,cuda,offload"


def fail(msg):
    print(f"gen-identity: {msg}", file=sys.stderr)
    sys.exit(2)


def run(cmd, **kw):
    r = subprocess.run(cmd, **kw)
    if r.returncode != 0:
        fail(f"{shlex.join(cmd)} exited with {r.returncode}")


def compile_gen(src_dir, exe):
    """op2-gen from the sources in src_dir, as the build compiles it (C17, GNU)."""
    sources = sorted(os.path.join(src_dir, f) for f in os.listdir(src_dir) if f.endswith(".c"))
    if not sources:
        fail(f"no op2-gen sources in {src_dir}")
    cc = os.environ.get("CC", "cc")
    # --version's library (op2/text's op2_version, with stand-ins for the
    # headers the build generates), for a generator that links it.
    stub = exe + ".version"
    os.makedirs(stub, exist_ok=True)
    with open(os.path.join(stub, "build_commit.h"), "w") as f:
        f.write('#define OP2SUITE_COMMIT "identity-check"\n#define OP2SUITE_COMMIT_DIRTY 0\n')
    with open(os.path.join(stub, "op_version_config.h"), "w") as f:
        f.write('#define OP2SUITE_VERSION "identity-check"\n')
    text = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "op2", "text")
    run([cc, "-std=gnu17", "-O1", '-DOP2_GEN_VERSION="identity-check"', "-I", text, "-I", stub,
         "-o", exe] + sources + [os.path.join(text, "op_version.c")])


def gen_commands(build_dir):
    """The op2-gen commands of the build: (working folder, arguments after op2-gen)."""
    ninja = os.path.join(build_dir, "build.ninja")
    try:
        with open(ninja, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        fail(f"cannot read {ninja} ({e.strerror}): configure first (cmake --preset release)")
    cmds = []
    for line in lines:
        line = line.strip()
        if not line.startswith("COMMAND = ") or "op2-gen --app " not in line:
            continue
        words = shlex.split(line[len("COMMAND = "):])
        # cd DIR && .../op2-gen ARGS
        if len(words) < 4 or words[0] != "cd" or words[2] != "&&" or \
                os.path.basename(words[3]) != "op2-gen":
            fail(f"{ninja}: an op2-gen command of an unexpected form: {line}")
        args = words[4:]
        if "&&" in args:  # what the build runs after it (the depfile's rewriting)
            args = args[:args.index("&&")]
        # The depfile is the build's: a run of the check writes none.
        if "--depfile" in args and args.index("--depfile") + 1 < len(args):
            i = args.index("--depfile")
            args = args[:i] + args[i + 2:]
        cmds.append((words[1], args))
    if not cmds:
        fail(f"{ninja}: no op2-gen command (is this an OP2 build tree?)")
    return cmds


def with_option(args, opt, value):
    """args with option opt's value replaced."""
    if opt not in args or args.index(opt) + 1 >= len(args):
        fail(f"op2-gen command without {opt}: {shlex.join(args)}")
    out = list(args)
    out[args.index(opt) + 1] = value
    return out


def generate(gen, cmds, work, name):
    """Every application's files into work/name. They are written into
    work/out first, and that folder renamed: the files name where they are
    (the device copies of kernel headers written beside the loop code), and
    the two generators must see the same paths."""
    out_dir = os.path.join(work, "out")
    for cwd, args in cmds:
        app = args[args.index("--app") + 1]
        dest = os.path.join(out_dir, app)
        if os.path.exists(dest):
            fail(f"two op2-gen commands for application {app}")
        os.makedirs(dest)
        args = with_option(with_option(args, "--out", dest), "--backends", ALL_BACKENDS)
        run([gen] + args, cwd=cwd)
    os.rename(out_dir, os.path.join(work, name))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", default="main")
    p.add_argument("--build", default=os.path.join(root, "build", "release"))
    p.add_argument("--keep")
    opts = p.parse_args()

    cmds = gen_commands(opts.build)
    work = opts.keep or tempfile.mkdtemp(prefix="gen-identity.")
    try:
        for sub in ("base", "work", "out", "base-src"):
            if os.path.exists(os.path.join(work, sub)):
                fail(f"{os.path.join(work, sub)} exists already")
        base_src = os.path.join(work, "base-src")
        os.makedirs(base_src)
        archive = subprocess.run(["git", "-C", root, "archive", opts.base, "op2/generator"],
                                 stdout=subprocess.PIPE)
        if archive.returncode != 0:
            fail(f"git archive {opts.base} op2/generator exited with {archive.returncode}")
        run(["tar", "-x", "-C", base_src], input=archive.stdout)
        compile_gen(os.path.join(base_src, "op2", "generator"), os.path.join(work, "op2-gen-base"))
        compile_gen(os.path.join(root, "op2", "generator"), os.path.join(work, "op2-gen-work"))
        generate(os.path.join(work, "op2-gen-base"), cmds, work, "base")
        generate(os.path.join(work, "op2-gen-work"), cmds, work, "work")
        nfiles = sum(len(files) for _, _, files in os.walk(os.path.join(work, "base")))
        d = subprocess.run(["diff", "-r", os.path.join(work, "base"), os.path.join(work, "work")])
        if d.returncode > 1:
            fail(f"diff -r exited with {d.returncode}")
        print(f"gen-identity: {len(cmds)} applications, {nfiles} files: "
              f"{'identical' if d.returncode == 0 else 'DIFFERENT'} to {opts.base}'s op2-gen")
        return d.returncode
    finally:
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main())
