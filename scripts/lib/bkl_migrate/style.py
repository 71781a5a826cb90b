# SPDX-License-Identifier: GPL-2.0
"""Kernel style for the lines a conversion writes: parameters wrapped and
aligned at 80 columns, tabs, designators aligned, no lone braces."""
import difflib
import re


def columns(line):
    """The width of line with tabs to 8 columns."""
    return len(line.expandtabs(8))


def wrap_parameters(head, params, col):
    """head (up to the opening parenthesis) and params, wrapped at 80
    columns with the continuation lines aligned to column col, and the
    closing parenthesis."""
    lines, cur = [], head + params[0]
    for p in params[1:]:
        if len((cur + ", " + p).expandtabs(8)) + 2 > 80:
            lines.append(cur + ",")
            cur = "\t" * (col // 8) + " " * (col % 8) + p
        else:
            cur += ", " + p
    return "\n".join(lines + [cur]) + ")"


def wrap_long_heads(text, names):
    """Wrap at 80 columns, aligned to the parenthesis, the one-line head of
    each function of names that a rename made longer (fn became
    fn_locked)."""
    for name in names:
        m = re.search(r"^([^\n;{}()=]*\b%s\()([^()\n]*)\)$" % re.escape(name), text, re.M)
        if not m or len(m.group(0).expandtabs(8)) <= 80:
            continue
        params = [p.strip() for p in m.group(2).split(",")]
        text = (text[:m.start()] + wrap_parameters(m.group(1), params,
                                                   len(m.group(1).expandtabs(8)))
                + text[m.end():])
    return text


def realign_parameters(text, names):
    """Align the continuation lines of each function in names that the
    inline pass renamed (fn becomes fn_locked) to its opening parenthesis
    again, as kernel style wants."""
    for name in names:
        m = re.search(r"^([^\n;{}]*\b%s\()([^)]*\n[^)]*)\)" % re.escape(name), text, re.M)
        if not m:
            continue
        col = len(m.group(1).expandtabs(8))
        lines = m.group(2).split("\n")
        lines[1:] = ["\t" * (col // 8) + " " * (col % 8) + line.lstrip() for line in lines[1:]]
        text = text[:m.start(2)] + "\n".join(lines) + text[m.end(2):]
    return text


def reflow_parameters(text, names, aligned_only=True):
    """Wrap again, aligned to the parenthesis at 80 columns, the parameter
    lists of the definitions and prototypes of names whose continuation
    lines were aligned to the parenthesis before the conversion changed
    the line (int became long, an argument went), as kernel style wants;
    with aligned_only false, every one of them (lines the conversion
    rewrote anyway)."""
    for name in names:
        # at file scope: from the first column, not a call in a body
        head = re.compile(r"^((?:[A-Za-z_][^\n;{}()=]*)?\b%s\()([^()]*\n[^()]*)\)"
                          % re.escape(name), re.M)
        pos = 0
        while True:
            m = head.search(text, pos)
            if not m:
                break
            pos = m.end()
            col = len(m.group(1).expandtabs(8))
            cont = m.group(2).split("\n")[1]
            indent = len(cont[:len(cont) - len(cont.lstrip())].expandtabs(8))
            if aligned_only and indent not in (col - 1, col, col + 1):
                continue
            params = [p.strip() for p in " ".join(m.group(2).split()).split(",")]
            new = wrap_parameters(m.group(1), params, col)
            text = text[:m.start()] + new + text[m.end():]
            pos = m.start() + len(new)
    return text


def align_designators(orig, text):
    """Give each new ".unlocked_ioctl = fn" or ".locked_ioctl = fn" line
    (Coccinelle writes one space around "=") the column of "=" of the
    tab-aligned designators around it, where tabs reach it."""
    old = set(orig.split("\n"))
    lines = text.split("\n")
    aligned = re.compile(r"^(\t+\.\w+\t[\t ]*)= ")
    # the line of orig each changed line replaced, where there is one
    olines, replaced = orig.split("\n"), {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
            None, olines, lines, autojunk=False).get_opcodes():
        if tag == "replace":
            for j in range(j1, min(j2, j1 + i2 - i1)):
                replaced[j] = olines[i1 + j - j1]
    for i, line in enumerate(lines):
        m = re.match(r"(\t+\.(?:unlocked_ioctl|locked_ioctl)) = ", line)
        if not m or line in old:
            continue
        near = [aligned.match(lines[j]) for j in (i - 1, i + 1) if 0 <= j < len(lines)]
        cols = [len(n.group(1).expandtabs(8)) for n in near if n]
        was = re.match(r"(\t+\.\s*ioctl\t[\t ]*)=", replaced.get(i, ""))
        if not cols and was:
            # alone in its initialiser: the column of the .ioctl it replaced
            cols = [len(was.group(1).expandtabs(8))]
        if not cols:
            continue
        width, tabs = len(m.group(1).expandtabs(8)), 0
        while width < cols[0]:
            width, tabs = (width // 8 + 1) * 8, tabs + 1
        if tabs and width == cols[0]:
            lines[i] = m.group(1) + "\t" * tabs + "= " + line[m.end():]
    return "\n".join(lines)


def tabify_new_lines(orig, text):
    """Indent with tabs, as kernel style wants, each line the conversion
    wrote that a file indented with spaces gave it: 8 spaces to a tab, and
    a tab for what is left (a file of four-space indents gets one tab where
    it had four spaces: checkpatch takes no line that starts with a space)."""
    old = set(orig.split("\n"))
    lines = text.split("\n")
    for i, line in enumerate(lines):
        n = len(line) - len(line.lstrip(" "))
        if n and line not in old and line.strip() and not line[n:].startswith("*"):
            lines[i] = "\t" * ((n + 7) // 8) + line[n:]
    return "\n".join(lines)


def closing_brace_above(lines):
    """Index of the last non-blank line if it is a lone closing brace (the
    end of the function a generator line follows), else None."""
    i = len(lines) - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    return i if i >= 0 and lines[i] == "}" else None


def tidy_new_lines(orig, text):
    """Each line the conversion wrote: no trailing white space; a trailing
    comment that the longer call pushed past 80 columns (the limit coding
    style prefers, and the one checkpatch kept until 5.7) on a line of its
    own above it; and the comment that closed a function ("} /* End f() */")
    back on its brace when a generator line went in between."""
    old = set(orig.split("\n"))
    out = []
    for line in text.split("\n"):
        if line in old:
            out.append(line)
            continue
        line = line.rstrip()
        # the head of a function as kernel style writes it: "struct file
        # *file", no space before the parenthesis
        line = re.sub(r"\b(struct \w+) \* (\w)", r"\1 *\2", line)
        line = re.sub(r"^((?:static\s+)?(?:long|int)\s+\w+) \(", r"\1(", line)
        m = re.match(r"^(\s*)(\S.*?;)\s*(/\*.*\*/)$", line)
        brace = closing_brace_above(out) \
            if m and not m.group(1) and re.match(r"DEFINE_\w+\(", m.group(2)) \
            else None
        if brace is not None:
            out[brace] = "} " + m.group(3)
            line = m.group(2)
        elif m and columns(line) > 80:
            out.append(m.group(1) + m.group(3))
            line = m.group(1) + m.group(2)
        out.append(line)
    return "\n".join(out)


def drop_lone_braces(locked, text, unlock=r"unlock_kernel\(\);"):
    """The braces of an if whose block the inline pass left with one
    statement ("if (c) { unlock_kernel(); return e; }" became "if (c) {
    return e; }"), taken away as kernel style wants; not in an if/else
    chain, where the braces stay on every branch.  unlock: the call the
    pass took out, as a regular expression."""
    lone = re.compile(r"^(\t+)if (\(.*\)) \{\n\1\t%s\n\1\t([^\n]*;)\n\1\}\n(?!\1else)" % unlock,
                      re.M)
    for m in lone.finditer(locked):
        ind, cond, stmt = m.groups()
        block = "%sif %s {\n%s\t%s\n%s}\n" % (ind, cond, ind, stmt, ind)
        pos = text.find(block)
        while pos >= 0:
            end = pos + len(block)
            chained = text[:pos].endswith("} else ") or text.startswith(ind + "else", end)
            if not chained and (pos == 0 or text[pos - 1] == "\n"):
                text = text[:pos] + "%sif %s\n%s\t%s\n" % (ind, cond, ind, stmt) + text[end:]
            pos = text.find(block, pos + 1)
    return text
