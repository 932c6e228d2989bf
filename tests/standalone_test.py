#!/usr/bin/env python3
"""The repository stands alone: no tracked file points to a folder beside the checkout.

usage: standalone_test.py SOURCE_DIR

Every file git tracks in SOURCE_DIR (every file under it, build folders aside, when it is not a git checkout)
is searched for a path into a sibling 'shared' folder: the parent-relative one, or its papers, validation and
MemGaze check-case subfolders under any prefix. docs/changelog.md, the project's history, may name them. Papers
are cited by title, authors and venue; third-party data the tests need is vendored (tests/data/). The check is
first run on a small tree made here, with one file of each kind of reference, so that it is seen to fail.
Prints 'N passed, N failed'; exits 1 on a failure.
"""
import os
import subprocess
import sys
import tempfile

# built from parts, so that this file does not match itself
SHARED = "shared"
PATTERNS = [b"../" + SHARED.encode()] + [f"{SHARED}/{sub}".encode() for sub in ("papers", "validation",
                                                                                 "memgaze-check")]
EXEMPT = {"docs/changelog.md"}

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}")


def tracked(root):
    """The files git tracks under ROOT, or every file outside build folders and .git when it is no checkout."""
    try:
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        if r.stdout:
            return [p for p in r.stdout.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def references(root, files):
    """(file, line number, pattern) of every reference outside EXEMPT."""
    found = []
    for rel in sorted(files):
        if rel in EXEMPT:
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # deleted in the work tree, or a submodule
        with open(path, "rb") as f:
            for n, line in enumerate(f, 1):
                for p in PATTERNS:
                    if p in line:
                        found.append((rel, n, p.decode()))
    return found


def self_test():
    with tempfile.TemporaryDirectory(prefix="edan_standalone_") as tmp:
        files = {"docs/changelog.md": "read " + PATTERNS[0].decode() + "/x\n", "clean.md": "shared memory\n"}
        for i, p in enumerate(PATTERNS):
            files[f"bad{i}.py"] = f"# line one\nopen('/x/{p.decode()}/y')\n"
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        found = references(tmp, list(files))
        want = [(f"bad{i}.py", 2, p.decode()) for i, p in enumerate(PATTERNS)]
        check(sorted(found) == sorted(want), f"the checker on its own tree: found {found}, expected {want}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    self_test()
    files = tracked(root)
    check(len(files) > 100, f"{root}: only {len(files)} files found")
    found = references(root, files)
    for rel, n, p in found:
        print(f"{rel}:{n}: names '{p}', a folder outside the repository")
    check(not found, f"{len(found)} references to a folder outside the repository")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
