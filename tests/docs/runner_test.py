#!/usr/bin/python3
"""The doc test's own test (ctest doc_runner): pages written for it, run by
run_doc_examples.py as ctest runs a real page, must pass or fail as a reader would expect —
with the page, line and block of each failure named.

    runner_test.py BUILD_DIR SOURCE_DIR
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from machine_masks import matches, normalize  # noqa: E402
from markdown_blocks import PageError, read_blocks  # noqa: E402

BUILD, TREE = sys.argv[1], sys.argv[2]


def run_page(text: str) -> tuple[int, str]:
    """(exit status, output) of the runner on a page with this text."""
    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "page.md")
        with open(page, "w") as f:
            f.write(textwrap.dedent(text))
        r = subprocess.run([sys.executable, os.path.join(HERE, "run_doc_examples.py"),
                            "--build", BUILD, "--tree", TREE, page],
                           capture_output=True, text=True, timeout=120)
        return r.returncode, r.stdout + r.stderr


class Pages(unittest.TestCase):
    def test_a_session_passes_when_it_prints_what_the_page_shows(self) -> None:
        status, out = run_page("""
            ```
            $ echo hello; echo world
            hello
            world
            $ hilsim --version | cut -c1-6
            hilsim
            ```
            """)
        self.assertEqual(status, 0, out)
        self.assertIn("1 examples run, 0 failures", out)

    def test_a_wrong_output_fails_naming_page_line_and_block(self) -> None:
        status, out = run_page("""
            Text.

            ```
            $ echo hello
            hello
            $ echo 41
            42
            ```
            """)
        self.assertEqual(status, 1, out)
        self.assertIn("page.md:7 (the session block at line 4, `$ echo hello`)", out)
        self.assertIn("-42", out)
        self.assertIn("+41", out)

    def test_an_unmarked_script_that_fails_fails_and_a_skipped_one_does_not_run(self) -> None:
        status, out = run_page("""
            <!-- doctest: skip: it would fail -->
            ```sh
            false
            ```

            ```sh
            false
            true
            ```
            """)
        self.assertEqual(status, 1, out)
        self.assertIn("page.md:7 (the script block at line 7, `false`): a command failed", out)
        self.assertNotIn("page.md:3", out)
        self.assertIn("1 marked not runnable", out)

    def test_files_background_and_its_output(self) -> None:
        status, out = run_page("""
            <!-- doctest: file /tmp/note.txt -->
            ```
            a note
            ```

            <!-- doctest: background; ready started -->
            ```
            $ echo started; sleep 0.5; echo done
            started
            ```

            ```
            $ cat /tmp/note.txt
            a note
            ```

            <!-- doctest: output background -->
            ```
            started
            done
            ```
            """)
        self.assertEqual(status, 0, out)

    def test_a_mark_that_is_wrong_is_an_error_at_its_line(self) -> None:
        for mark, why in (("<!-- doctest: skp -->", "unknown doctest directive 'skp'"),
                          ("<!-- doctest: skip -->", "`skip` needs its reason")):
            status, out = run_page(f"\n{mark}\n```sh\ntrue\n```\n")
            self.assertEqual(status, 1, out)
            self.assertIn(f"page.md:2: {why}", out)

    def test_an_indented_session_must_be_fenced(self) -> None:
        with self.assertRaisesRegex(PageError, r"p.md:3: an indented session"):
            read_blocks("p.md", "Text\n\n    $ hilsim run\n")


class Masks(unittest.TestCase):
    def test_what_depends_on_the_machine_is_masked_and_nothing_else(self) -> None:
        shown = ["hilsim run: ravon — completed: 20.0 s simulated in 20.1 s (RTF 0.99)",
                 "warning: overrun at tick 723: work ended 13282 ns after the next deadline",
                 "  ticks 80000 at 250us, overruns 138, wake-up latency p99 59 us, max 9397.3 us"]
        printed = ["hilsim run: ravon — completed: 20.0 s simulated in 21.7 s (RTF 0.92)",
                   "  ticks 80000 at 250us, overruns 3, wake-up latency p99 9 us, max 97.3 us"]
        self.assertTrue(matches(normalize(shown), normalize(printed)))
        printed[1] = printed[1].replace("80000", "80001")
        self.assertFalse(matches(normalize(shown), normalize(printed)))

    def test_an_ellipsis_stands_for_lines_or_text(self) -> None:
        self.assertTrue(matches(["a", "…", "d"], ["a", "b", "c", "d"]))
        self.assertTrue(matches(["a", "…", "d"], ["a", "d"]))
        self.assertTrue(matches(["by … s"], ["by 3.38 s"]))
        self.assertFalse(matches(["a", "…", "d"], ["a", "b", "c"]))
        self.assertFalse(matches(["by … s"], ["at 3.38 s"]))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
