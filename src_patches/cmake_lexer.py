"""A small CMake-language reader for anchor-based edits (src_patches).

It splits a CMakeLists.txt into command invocations with exact character
spans, so edits can be expressed as "find this command, change this
argument" instead of line diffs. It follows the CMake language grammar
(cmake-language(7)): line and bracket comments, quoted arguments with
escapes, bracket arguments, nested parentheses in argument lists, and
unquoted arguments (including the legacy form with embedded quotes).

A file that does not read cleanly (unbalanced parentheses, an unterminated
string or bracket) raises CMakeSyntaxError with a line number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACKET_OPEN = re.compile(r"\[(=*)\[")


class CMakeSyntaxError(Exception):
    pass


@dataclass
class Arg:
    text: str  # source text of the argument (quotes included for quoted args)
    kind: str  # "unquoted" | "quoted" | "bracket"
    start: int
    end: int

    @property
    def value(self) -> str:
        if self.kind == "quoted":
            return self.text[1:-1]
        return self.text


@dataclass
class Command:
    name: str
    start: int  # offset of the command name
    end: int  # offset just past the closing parenthesis
    line: int
    args: list[Arg] = field(default_factory=list)
    depth: int = 0  # block nesting depth (if/foreach/while/function/macro/block)

    @property
    def lname(self) -> str:
        return self.name.lower()

    def values(self) -> list[str]:
        return [a.value for a in self.args]


_OPENERS = {"if", "foreach", "while", "function", "macro", "block"}
_CLOSERS = {"endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"}


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip_bracket(text: str, pos: int, what: str) -> int:
    """pos at '[' of an opening bracket; return offset past the closing one."""
    m = _BRACKET_OPEN.match(text, pos)
    assert m
    close = "]" + m.group(1) + "]"
    end = text.find(close, m.end())
    if end < 0:
        raise CMakeSyntaxError(f"line {_line_of(text, pos)}: unterminated {what}")
    return end + len(close)


def _skip_quoted(text: str, pos: int) -> int:
    """pos at the opening quote; return offset past the closing quote."""
    i = pos + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    raise CMakeSyntaxError(f"line {_line_of(text, pos)}: unterminated quoted argument")


def _skip_comment(text: str, pos: int) -> int:
    """pos at '#'; return offset past the comment (not past the newline)."""
    if _BRACKET_OPEN.match(text, pos + 1):
        return _skip_bracket(text, pos + 1, "bracket comment")
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl


def parse(text: str) -> list[Command]:
    """All command invocations in file order."""
    cmds: list[Command] = []
    i, n = 0, len(text)
    depth = 0
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c == "#":
            i = _skip_comment(text, i)
            continue
        m = _IDENT.match(text, i)
        if not m:
            raise CMakeSyntaxError(
                f"line {_line_of(text, i)}: expected a command, found {text[i:i+20]!r}")
        name = m.group(0)
        j = m.end()
        while j < n and text[j] in " \t":
            j += 1
        if j >= n or text[j] != "(":
            raise CMakeSyntaxError(
                f"line {_line_of(text, i)}: command `{name}` is not followed by '('")
        cmd = Command(name=name, start=i, end=-1, line=_line_of(text, i))
        j += 1
        pdepth = 1
        while True:
            if j >= n:
                raise CMakeSyntaxError(
                    f"line {cmd.line}: unbalanced parentheses in `{name}(`")
            c = text[j]
            if c.isspace():
                j += 1
            elif c == "#":
                j = _skip_comment(text, j)
            elif c == "(":
                pdepth += 1
                j += 1
            elif c == ")":
                pdepth -= 1
                j += 1
                if pdepth == 0:
                    break
            elif c == '"':
                e = _skip_quoted(text, j)
                cmd.args.append(Arg(text[j:e], "quoted", j, e))
                j = e
            elif c == "[" and _BRACKET_OPEN.match(text, j):
                e = _skip_bracket(text, j, "bracket argument")
                cmd.args.append(Arg(text[j:e], "bracket", j, e))
                j = e
            else:
                s = j
                while j < n:
                    c = text[j]
                    if c == "\\":
                        j += 2
                    elif c == '"':  # legacy unquoted argument: a"b c"d
                        j = _skip_quoted(text, j)
                    elif c.isspace() or c in "()#":
                        break
                    else:
                        j += 1
                cmd.args.append(Arg(text[s:j], "unquoted", s, j))
        cmd.end = j
        i = j
        ln = name.lower()
        if ln in _CLOSERS:
            depth -= 1
            if depth < 0:
                raise CMakeSyntaxError(f"line {cmd.line}: `{name}()` without an opening block")
            cmd.depth = depth
        else:
            cmd.depth = depth
            if ln in _OPENERS:
                depth += 1
        cmds.append(cmd)
    if depth != 0:
        raise CMakeSyntaxError("a block (if/foreach/while/function/macro/block) is not closed")
    return cmds


def enclosing_top_level(cmds: list[Command], index: int) -> Command:
    """The depth-0 command that opens the block containing cmds[index]
    (cmds[index] itself when it is at depth 0)."""
    i = index
    while cmds[i].depth > 0 or cmds[i].lname in _CLOSERS:
        i -= 1
    return cmds[i]


def line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def line_indent(text: str, pos: int) -> str:
    s = line_start(text, pos)
    return text[s:pos] if text[s:pos].strip() == "" else ""
