# SPDX-License-Identifier: GPL-2.0
"""C source as bkl-users reads it: comments, literals and preprocessor
lines blanked, the functions of a file, the arguments of a call."""
import re


# Comments, string and character literals, and preprocessor directives with
# their continuation lines.
NOISE_RE = re.compile(r"""/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                      r"|^[ \t]*#(?:\\\n|[^\n])*", re.S | re.M)


COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def word_at(text, m):
    """Does match m of text begin a word (what a leading \\b would check)?"""
    i = m.start()
    return i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")


# A literal first, the word boundary checked by word_at(): see GENERATOR_RE.
MUTEX_CALL_RE = re.compile(r"(mutex_\w+)\s*\(\s*&\s*(\w+)\s*\)")


def mutex_calls(text, start, end):
    """The (function, lock) of each mutex_*(&lock) call in text[start:end]."""
    return [m.groups() for m in MUTEX_CALL_RE.finditer(text, start, end)
            if word_at(text, m)]


def blank_match(m):
    """The text of match m with everything but its newlines made spaces."""
    g = m.group()
    if "\n" not in g:
        return " " * len(g)
    return "\n".join(" " * len(line) for line in g.split("\n"))


def blank(text):
    """Blank comments, literals and preprocessor lines, keeping every offset
    and newline, so that what matches afterwards is real code."""
    return NOISE_RE.sub(blank_match, text)


def split_args(text, start):
    """Arguments of the call whose "(" is at start: (args, end offset)."""
    depth, args, cur = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i])
                return args, i + 1
        elif c == "," and depth == 1:
            args.append(text[cur:i])
            cur = i + 1
    return None, len(text)


def stringify(expr):
    """What the C preprocessor's # makes of a macro argument."""
    return re.sub(r"\s+", " ", expr).strip()


# What functions() looks at: the braces, and the semicolons that end a
# declaration at file scope.
BRACE_RE = re.compile(r"[{};]")


# A function's header ends with its name and its parameters, in which
# parentheses nest once at most: name(int a, void (*b)(int)).  Matched from
# the end, on the header reversed, so that the text before the name (a
# whole file's declarations, at worst) is never searched.
FUNC_HEADER_REV_RE = re.compile(r"\s*\)(?:[^()]*\)[^()]*\()*[^()]*\(\s*(\w+)")


def function_name(code, start, end):
    """(name, offset of the name) when code[start:end] ends with a function's
    name and parameters, else None."""
    m = FUNC_HEADER_REV_RE.match(code[end - 1:start - 1 if start else None:-1])
    if not m:
        return None
    return m.group(1)[::-1], end - m.end(1)


def functions(code):
    """(name, offset of the name, body start, body end) of every function
    defined in code.  One pass over its braces and semicolons: the regular
    expression engine skips the rest, which a loop over every character
    would visit (a third of bkl-users' time over a whole tree)."""
    result, depth, header_start, func = [], 0, 0, None
    for m in BRACE_RE.finditer(code):
        c, i = m.group(), m.start()
        if func is not None:
            # in a function's body, to its closing brace
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    result.append(func + (i + 1,))
                    func, header_start = None, i + 1
            continue
        if c == "{":
            if depth == 0:
                fn = function_name(code, header_start, i)
                if fn:
                    func, depth = fn + (i,), 1
                    continue
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                header_start = i + 1
        elif depth == 0:
            header_start = i + 1
    if func is not None:
        result.append(func + (len(code),))
    return result


def enclosing(funcs, offset):
    for name, _, start, end in funcs:
        if start <= offset < end:
            return name
    return "-"
