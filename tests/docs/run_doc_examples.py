#!/usr/bin/python3
"""Runs the examples of Markdown pages and compares the output they show
(docs/architecture.md "Docs as tests"; ctest: doc_<page>, label docs).

    run_doc_examples.py --build build/release [--tree .] PAGE.md...
    run_doc_examples.py --list PAGE.md...      what would run, what is marked not runnable

Each page runs in a fresh temporary directory that stands for the checkout the pages run from
(~/hilsim, also $HOME/hilsim): copies of the tree's hil_rigs/ and docs/, links to its tools/
and to the build tree as build/release. The built hilsim is first on PATH; rigs are found as
from a checkout's top (./hil_rigs, the source tree's; HILSIM_RIGS unset, so outputs name them
as a user sees them); hilsim's runtime directory (bus sockets, console tokens) is the run's
own; Python and pkg-config find the package and libhilbus of the tree (PYTHONPATH,
HILBUS_LIBRARY, PKG_CONFIG_PATH, as docs/install.md "From a build tree"); /tmp/ in the page's
commands is a tmp/ of that directory, and outputs are compared with these paths named the
page's way. Exit status 0 when every example passed.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine_masks import aligned, loosen, matches, normalize  # noqa: E402
from markdown_blocks import Block, PageError, read_blocks  # noqa: E402
from shell_session import CommandTimeout, Shell  # noqa: E402

EXAMPLE_KINDS = {"script", "session", "python"}
# A script block in the page's shell: the status of its first failing command, else 0.
SCRIPT = """__doctest_failed=0
trap '__doctest_st=$?; [ "$__doctest_failed" = 0 ] && __doctest_failed=$__doctest_st' ERR
{}
trap - ERR
(exit $__doctest_failed)"""
DEFAULT_TIMEOUT_S = 120.0
_TMP = re.compile(r"(?<![\w./~-])/tmp/")


class Page:
    """One page's run: its directory, its shell, its failures."""

    def __init__(self, path: str, tree: str, build: str, keep: bool, verbose: bool) -> None:
        self.path, self.tree, self.build, self.keep, self.verbose = path, tree, build, keep, verbose
        self.name = page_name(path, tree)
        self.failures: list[str] = []
        self.ran = 0
        self.last_output: tuple[Block, str] | None = None
        self.background: tuple[Block, str, str] | None = None  # block, pid, log
        self.work = tempfile.mkdtemp(prefix="doc_" + page_id(self.name) + "_")
        self.tmp = os.path.join(self.work, "tmp")
        for d in ("tmp", "home", "run", ".doctest"):
            os.makedirs(os.path.join(self.work, d))
        shutil.copytree(os.path.join(tree, "hil_rigs"), os.path.join(self.work, "hil_rigs"))
        shutil.copytree(os.path.join(tree, "docs"), os.path.join(self.work, "docs"),
                        ignore=shutil.ignore_patterns("*.png"))
        os.symlink(os.path.join(tree, "tools"), os.path.join(self.work, "tools"))
        os.makedirs(os.path.join(self.work, "build"))
        os.symlink(build, os.path.join(self.work, "build", "release"))
        os.symlink(self.work, os.path.join(self.work, "home", "hilsim"))  # ~/hilsim: the checkout
        env = {
            "PATH": os.pathsep.join([os.path.join(build, "tools"), "/usr/local/bin", "/usr/bin",
                                     "/bin", "/usr/sbin", "/sbin"]),
            "HOME": os.path.join(self.work, "home"),
            "TMPDIR": self.tmp,
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "dumb", "COLUMNS": "200",
            "HILSIM_RUNTIME_DIR": os.path.join(self.work, "run"),
            "PYTHONPATH": os.path.join(tree, "tools", "python"),
            "HILBUS_LIBRARY": os.path.join(build, "io", "bus", "client", "libhilbus.so.1"),
            # pkg-config finds the build tree's hilbus-uninstalled.pc (docs/install.md)
            "PKG_CONFIG_PATH": os.path.join(build, "io", "bus", "client"),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        self.shell = Shell(self.work, env, os.path.join(self.work, ".doctest"))

    # --- paths: /tmp/ of the page is the run's tmp/; outputs say it the page's way ---
    def to_run(self, text: str) -> str:
        return _TMP.sub(self.tmp + "/", text)

    def to_page(self, text: str) -> str:
        """The page's names for this run's paths: its tmp/ is /tmp, its directory (and the
        source tree) the checkout ~/hilsim the pages run from, the build tree build/release."""
        home = os.path.join(self.work, "home")
        for path, name in ((self.tmp, "/tmp"), (os.path.join(home, "hilsim"), "~/hilsim"),
                           (home, "~"), (self.work, "~/hilsim"), (self.build, "build/release"),
                           (self.tree, "~/hilsim")):
            text = text.replace(path, name)
        return text

    def fail(self, block: Block, why: str, line: int | None = None) -> None:
        where = f"{self.name}:{line or block.line}"
        self.failures.append(f"FAIL {where} (the {block.kind} block at line {block.line}, "
                             f"`{block.first_line()[:70]}`): {why}")

    def execute(self, block: Block, command: str, line: int, timeout: float,
                run_text: str | None = None) -> tuple[str, int]:
        """Runs the page's command (its /tmp/ mapped), or run_text for it when given."""
        start = time.monotonic()
        try:
            output, status = self.shell.run(run_text or self.to_run(command), timeout)
        except CommandTimeout as e:
            self.fail(block, f"`{command.splitlines()[0]}` did not end within {timeout:.0f} s "
                      f"(mark a longer `timeout N`, or shorten it); it printed:\n"
                      + indent(self.to_page(str(e))), line)
            return "", -1
        output = self.to_page(output)
        if self.verbose:
            print(f"--- {self.name}:{line} ({time.monotonic() - start:.1f} s, exit {status}) "
                  f"$ {command}\n{output}", flush=True)
        return output, status

    def compare(self, block: Block, expected: list[str], output: str, line: int,
                status: int = 0) -> None:
        want, got = normalize(expected), normalize(output.split("\n"))
        if block.mark and "loose" in block.mark.directives:
            want, got = loosen(want), loosen(got)
        if not matches(want, got):
            diff = "\n".join(difflib.unified_diff(aligned(want, got), got, "the page shows",
                                                  "the command printed", lineterm="", n=2))
            self.fail(block, "the output differs (after the masks of tests/docs/machine_masks.py)"
                      f":\n{indent(diff)}\nthe command printed (exit status {status}):\n{indent(output)}", line)

    def run_block(self, block: Block) -> None:
        mark = block.mark.directives if block.mark else {}
        timeout = float(mark.get("timeout") or DEFAULT_TIMEOUT_S)
        if block.mark and "setup" in mark:
            setup = "\n".join(block.mark.body + ([mark["setup"]] if mark["setup"] else []))
            output, status = self.execute(block, setup, block.mark.line, timeout)
            if status != 0:
                self.fail(block, f"its setup (the mark at line {block.mark.line}) exited "
                          f"{status}:\n{indent(output)}", block.mark.line)
        if block.kind == "output":
            if mark["output"] == "background":
                self.compare(block, block.lines, self.wait_background(block, timeout), block.line)
                return
            if not self.last_output:
                self.fail(block, "an `output` block with no example before it")
                return
            self.compare(block, block.lines, self.last_output[1], block.line)
            return
        if block.kind == "file":
            cwd = self.shell.run("pwd", 10)[0].strip()  # a relative path: where the page is
            path = os.path.join(cwd, self.to_run(mark["file"]))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("\n".join(block.lines) + "\n")
            return
        if block.kind not in EXAMPLE_KINDS:
            return
        self.ran += 1
        want_status = int(mark.get("exit") or 0)
        if "background" in mark:
            self.start_background(block, timeout)
            return
        if block.kind == "session":
            # As a terminal shows it: the output is compared, not the exit status (a page
            # shows it with `$ echo $?`), except for the last command of a block marked `exit N`
            commands = block.commands()
            for n, command in enumerate(commands):
                output, status = self.execute(block, command.text, command.line, timeout)
                last = n == len(commands) - 1
                if last and "exit" in mark and status != want_status:
                    self.fail(block, f"`{command.text.splitlines()[0]}` exited {status}, the mark "
                              f"says {want_status}:\n{indent(output)}", command.line)
                if command.expected or not last or not self.next_is_output(block):
                    self.compare(block, command.expected, output, command.line, status)
                self.last_output = (block, output)
            return
        text = "\n".join(block.lines)
        if block.kind == "python":
            script = os.path.join(self.work, ".doctest", f"block_{block.line}.py")
            with open(script, "w") as f:
                f.write(self.to_run(text) + "\n")
            output, status = self.execute(block, text, block.line, timeout,
                                          f"/usr/bin/python3 {script}")
        else:  # a script: each command must succeed, not only the last (an ERR trap)
            output, status = self.execute(block, text, block.line, timeout, SCRIPT.format(
                self.to_run(text)))
        if status != want_status:
            self.fail(block, f"a command failed (exit status {status}; the page expects "
                      f"{want_status}: mark `exit N`); the block printed:\n" + indent(output))
        self.last_output = (block, output)

    def start_background(self, block: Block, timeout: float) -> None:
        """A `background` block: its commands run on in the background, as in a second terminal
        (not a job of the page's shell: `%1`, `wait` there do not see it); `ready REGEX` waits
        until its output shows REGEX."""
        text = "\n".join(c.text for c in block.commands()) if block.kind == "session" \
            else "\n".join(block.lines)
        log = os.path.join(self.work, ".doctest", f"background_{block.line}.log")
        pid, _ = self.execute(block, text, block.line, timeout,
                              f"( {self.to_run(text)}\n) >{log} 2>&1 & echo $!; disown $!")
        self.background = (block, pid.strip(), log)
        ready = block.mark.directives.get("ready") if block.mark else None
        if not ready:
            return
        pattern, deadline = re.compile(ready), time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pattern.search(read_text(log)):
                if block.kind == "session":  # what it shows so far, and it goes on
                    shown = [line for c in block.commands() for line in c.expected]
                    self.compare(block, shown + ["…"], self.to_page(read_text(log)), block.line)
                return
            time.sleep(0.1)
        self.fail(block, f"its output did not show /{ready}/ within {timeout:.0f} s:\n"
                  + indent(self.to_page(read_text(log))))

    def wait_background(self, block: Block, timeout: float) -> str:
        """What the last `background` block printed, once it ended (an `output background`
        block: the output of a process of "another terminal", shown after it ended)."""
        if not self.background:
            self.fail(block, "an `output background` block with no `background` block before it")
            return ""
        started, pid, log = self.background
        # not a job of the page's shell (disowned: "another terminal"): polled
        output, status = self.execute(block, "wait", block.line, timeout,
                                      f"while kill -0 {pid} 2>/dev/null; do sleep 0.1; done")
        if status == -1:
            self.fail(block, f"the background block at line {started.line} did not end")
        return self.to_page(read_text(log))

    def next_is_output(self, block: Block) -> bool:
        return block is self._next_output_source

    def run(self, blocks: list[Block]) -> None:
        self._next_output_source = None
        for i, block in enumerate(blocks):
            # the output blocks right after it (text between allowed) show its output
            shown = False
            for after in blocks[i + 1:]:
                if after.kind not in ("text", "output"):
                    break
                if after.kind == "output" and after.mark and after.mark.directives["output"] == "":
                    shown = True
            self._next_output_source = block if shown else None
            if block.mark and "skip" in block.mark.directives:
                continue
            self.run_block(block)

    def close(self) -> None:
        self.shell.close()
        if self.keep or self.failures:
            print(f"{self.name}: the run's directory is kept: {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)


def read_text(path: str) -> str:
    """The file's text; empty while it does not exist yet (a background job opens it)."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n"))


def page_name(path: str, tree: str) -> str:
    """The page as failures name it: relative to the tree (docs/ecu.md), else as given."""
    relative = os.path.relpath(os.path.realpath(path), tree)
    return path if relative.startswith("..") else relative


def page_id(name: str) -> str:
    return os.path.splitext(os.path.basename(name))[0]


def list_page(path: str, blocks: list[Block]) -> tuple[int, int]:
    run = skipped = 0
    for b in blocks:
        skip = b.mark.directives.get("skip") if b.mark else None
        if b.kind in EXAMPLE_KINDS:
            if skip:
                skipped += 1
                print(f"{path}:{b.line}: not run ({b.kind}): {skip}")
            else:
                run += 1
                print(f"{path}:{b.line}: runs ({b.kind}) `{b.first_line()[:60]}`")
    return run, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--build", help="the build tree (its tools/hilsim is run)")
    parser.add_argument("--tree", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("--list", action="store_true", help="list the examples, run nothing")
    parser.add_argument("--keep", action="store_true", help="keep the run's directory")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every output")
    args = parser.parse_args()
    tree = os.path.realpath(args.tree)
    status = 0
    totals = [0, 0]
    for path in args.pages:
        try:
            with open(path) as f:
                blocks = read_blocks(page_name(path, tree), f.read())
        except PageError as e:
            print(f"FAIL {e}")
            status = 1
            continue
        if args.list:
            run, skipped = list_page(page_name(path, tree), blocks)
            totals[0] += run
            totals[1] += skipped
            continue
        if not args.build:
            parser.error("--build is needed to run the examples")
        start = time.monotonic()
        page = Page(os.path.realpath(path), tree, os.path.realpath(args.build), args.keep,
                    args.verbose)
        try:
            page.run(blocks)
        finally:
            page.close()
        for failure in page.failures:
            print(failure, flush=True)
        skipped = sum(1 for b in blocks if b.kind in EXAMPLE_KINDS and b.mark and "skip" in
                      b.mark.directives)
        print(f"{page.name}: {page.ran} examples run, {len(page.failures)} failures, {skipped} "
              f"marked not runnable; {time.monotonic() - start:.1f} s")
        status |= bool(page.failures)
    if args.list:
        print(f"{totals[0]} examples run, {totals[1]} marked not runnable")
    return status


if __name__ == "__main__":
    sys.exit(main())
