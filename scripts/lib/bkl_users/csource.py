# SPDX-License-Identifier: GPL-2.0
"""C source as bkl-users reads it: comments, literals and preprocessor
lines blanked, the functions of a file, the arguments of a call."""
import re


# Comments, string and character literals, and preprocessor directives with
# their continuation lines.  Each begins with one of four characters, which
# the engine looks for before it tries the alternatives (twice as fast as
# trying them at every position): a "#" outside those can only begin a
# directive, and the blanks before it may stay.  Each is written as runs of
# what it may hold ("unrolled"), which the engine takes a run at a time.
NOISE_RE = re.compile(r"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/"
                      r"|//[^\n]*"
                      r"""|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"""
                      r"|#(?:[^\\\n]+|\\\n?)*", re.S)


COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def is_word_char(c):
    """Is c a character of a word, as the pattern \\w sees it?"""
    return c.isalnum() or c == "_"


def word_at(text, m):
    """Does match m of text begin a word (what a leading \\b would check)?"""
    i = m.start()
    return i == 0 or not is_word_char(text[i - 1])


def word_offsets(text, word):
    """The offset of each whole word word in text: what finditer() of
    \\bword\\b finds, by str.find(), with no pattern compiled per word."""
    n, i = len(word), text.find(word)
    while i >= 0:
        j = i + n
        if (i == 0 or not is_word_char(text[i - 1])) and \
           (j == len(text) or not is_word_char(text[j])):
            yield i
        i = text.find(word, i + 1)


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
    return "\n".join(map(" ".__mul__, map(len, g.split("\n"))))


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


# What functions() looks at, at file scope: the braces, and the semicolons
# that end a declaration.
FILE_SCOPE_RE = re.compile(r"[{};]")


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


def block_end(code, start):
    """The offset after the brace that closes the one at start (or the end
    of code): counted between closing braces, by str methods, faster than
    a loop over every brace."""
    depth, pos = 1, start + 1
    find, count = code.find, code.count
    while True:
        close = find("}", pos)
        if close < 0:
            return len(code)
        depth += count("{", pos, close) - 1
        pos = close + 1
        if depth == 0:
            return pos


def functions(code):
    """(name, offset of the name, body start, body end) of every function
    defined in code.  The regular expression engine finds what ends a
    declaration at file scope, block_end() the end of each block there (a
    function's body, or a struct's or an initialiser's braces, in which
    no function is defined): nothing in a block is looked at twice."""
    result, pos, search = [], 0, FILE_SCOPE_RE.search
    header_start = 0
    while True:
        m = search(code, pos)
        if m is None:
            return result
        i = m.start()
        if code[i] == "{":
            pos = block_end(code, i)
            fn = function_name(code, header_start, i)
            if fn:
                result.append(fn + (i, pos))
        else:
            # a declaration's end, or a stray brace of an #if branch
            pos = i + 1
        header_start = pos


def enclosing(funcs, offset):
    for name, _, start, end in funcs:
        if start <= offset < end:
            return name
    return "-"
