"""The examples of a Markdown page: its fenced code blocks in order, each with the doctest
mark of the HTML comment right before it (docs/architecture.md "Docs as tests").

A block is an example when it is a shell block (```sh, ```bash, ```shell), a terminal
session (```console, or an untagged block whose first line starts with "$ "), or Python
(```python, ```py). Other blocks (Protobuf text, C, output shown on its own) are text
unless a mark makes them part of an example (`output`, `file PATH`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SCRIPT_LANGS = {"sh", "bash", "shell"}
SESSION_LANGS = {"console", "shell-session"}
PYTHON_LANGS = {"python", "py", "python3"}

# Directives a mark may carry, "; "-separated on its first line.
DIRECTIVES = {"skip", "output", "file", "setup", "background", "ready", "exit", "timeout",
              "loose"}

_FENCE = re.compile(r"^(?P<indent> {0,3}|\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
_MARK_START = re.compile(r"^\s*<!--\s*doctest:(?P<rest>.*)$")
# "a; b": a directive starts after "; " (a skip's reason may hold semicolons of its own)
_DIRECTIVE_SPLIT = re.compile(r";\s*(?=(?:" + "|".join(sorted(DIRECTIVES)) + r")\b)")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(?P<word>[A-Za-z_][A-Za-z0-9_]*)\1")


class PageError(Exception):
    """A page that breaks the marking rules: the message names page and line."""


@dataclass
class Mark:
    """The `<!-- doctest: ... -->` comment before a block."""
    line: int
    directives: dict[str, str] = field(default_factory=dict)
    body: list[str] = field(default_factory=list)  # the lines after the first (setup)


@dataclass
class Command:
    """One `$ ` command of a session, with the output the page shows for it."""
    line: int
    text: str
    expected: list[str]


@dataclass
class Block:
    page: str
    line: int  # of the opening fence, 1-based
    lang: str
    lines: list[str]
    mark: Mark | None
    kind: str  # script, session, python, output, file, text

    def where(self) -> str:
        return f"{self.page}:{self.line}"

    def first_line(self) -> str:
        return next((x.strip() for x in self.lines if x.strip()), "")

    def commands(self) -> list[Command]:
        """A session's commands: "$ " lines, "\\" continuations and here-documents
        belong to the command; the lines up to the next "$ " are its output."""
        commands: list[Command] = []
        i = 0
        while i < len(self.lines):
            text = self.lines[i]
            if not text.startswith("$ "):
                if commands:
                    commands[-1].expected.append(text)
                    i += 1
                    continue
                raise PageError(f"{self.where()}: a session block starts with \"$ \" (line "
                                f"{self.line + 1 + i} is {text!r})")
            start, command = i, text[2:]
            while command.endswith("\\") and i + 1 < len(self.lines):
                i += 1
                command += "\n" + self.lines[i]
            for heredoc in _HEREDOC.finditer(command):
                while i + 1 < len(self.lines):
                    i += 1
                    command += "\n" + self.lines[i]
                    if self.lines[i].strip() == heredoc.group("word"):
                        break
            commands.append(Command(self.line + 1 + start, command, []))
            i += 1
        return commands


def _parse_mark(lines: list[str], start: int, page: str) -> tuple[Mark, int]:
    """The mark starting at lines[start]; returns it and the index after its last line."""
    opening = _MARK_START.match(lines[start])
    assert opening, "called at a mark's first line"
    first = opening.group("rest")
    body: list[str] = []
    end = start
    if "-->" in first:
        first = first[:first.index("-->")]
    else:
        end += 1
        while end < len(lines) and "-->" not in lines[end]:
            body.append(lines[end])
            end += 1
        if end == len(lines):
            raise PageError(f"{page}:{start + 1}: a doctest mark that is never closed (-->)")
        tail = lines[end][:lines[end].index("-->")]
        if tail.strip():
            body.append(tail)
    mark = Mark(start + 1, body=body)
    for part in _DIRECTIVE_SPLIT.split(first.strip()):
        m = re.match(r"([a-z]+)\s*:?\s*(.*)$", part.strip().rstrip(";"), re.S)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key not in DIRECTIVES:
            raise PageError(f"{page}:{start + 1}: unknown doctest directive {key!r} (known: "
                            f"{', '.join(sorted(DIRECTIVES))})")
        mark.directives[key] = value
    if "skip" in mark.directives and not mark.directives["skip"]:
        raise PageError(f"{page}:{start + 1}: `skip` needs its reason: "
                        "<!-- doctest: skip: needs a SocketCAN interface -->")
    if body and "setup" not in mark.directives:
        raise PageError(f"{page}:{start + 1}: only a `setup` mark has lines of its own")
    return mark, end + 1


def _kind(lang: str, lines: list[str], mark: Mark | None) -> str:
    if mark and "output" in mark.directives:
        return "output"
    if mark and "file" in mark.directives:
        return "file"
    if lang in SCRIPT_LANGS:
        return "script"
    if lang in PYTHON_LANGS:
        return "python"
    first = next((x for x in lines if x.strip()), "")
    if lang in SESSION_LANGS or (not lang and first.startswith("$ ")):
        return "session"
    return "text"


def read_blocks(page: str, text: str) -> list[Block]:
    """Every fenced block of the page with its mark, in order. Raises PageError for a mark
    that is not right before a block, and for an indented (not fenced) session."""
    lines = text.split("\n")
    blocks: list[Block] = []
    pending: Mark | None = None
    i = 0
    while i < len(lines):
        if _MARK_START.match(lines[i]):
            if pending:
                raise PageError(f"{page}:{pending.line}: a doctest mark with no block after it")
            pending, i = _parse_mark(lines, i, page)
            continue
        m = _FENCE.match(lines[i])
        if m:
            indent, fence = len(m.group("indent")), m.group("fence")
            lang = m.group("info").strip().split(" ")[0].lower() if m.group("info") else ""
            close = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
            j = i + 1
            while j < len(lines) and not close.match(lines[j]):
                j += 1
            body = [x[indent:] if x[:indent].strip() == "" else x.lstrip() for x in lines[i + 1:j]]
            blocks.append(Block(page, i + 1, lang, body, pending, _kind(lang, body, pending)))
            pending = None
            i = j + 1
            continue
        if pending and lines[i].strip():
            raise PageError(f"{page}:{pending.line}: a doctest mark must come right before its "
                            f"block (line {i + 1} is text)")
        if (lines[i].startswith("    $ ") and (i == 0 or not lines[i - 1].strip())):
            raise PageError(f"{page}:{i + 1}: an indented session (\"    $ …\"): fence it "
                            "(```console) so the doc test runs it, or mark it")
        i += 1
    if pending:
        raise PageError(f"{page}:{pending.line}: a doctest mark with no block after it")
    return blocks
