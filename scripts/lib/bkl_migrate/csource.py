# SPDX-License-Identifier: GPL-2.0
"""Finding and placing things in C source: definitions, prototypes, the
initialisers of struct file_operations, the include of the layer."""
import re

from bkl_users.csource import blank, functions

from .preprocessor import Conditionals, blank_comments


# Files worth running each patch on.
HAS_IOCTL = re.compile(r"\.\s*ioctl\s*=|^\s*ioctl\s*:", re.M)


# A struct file_operations initialiser, up to its opening brace.
FOPS_INIT = re.compile(r"\bstruct\s+file_operations\s+\w+(?:\s*\[[^]]*\])?\s*=\s*\{")


HAS_LOCK_KERNEL = re.compile(r"\block_kernel\s*\(\s*\)")


HAS_WRAPPER = re.compile(r"_ioctl\s*=[\s\S]*mutex_lock|mutex_lock[\s\S]*_ioctl\s*=")


def prototype_re(names):
    """A prototype (a declaration, not a definition) of one of names, which
    may span lines, up to its semicolon."""
    return re.compile(r"^[^\n;{}#]*\b(?:%s)\s*\([^;{}]*\)\s*;[ \t]*$" %
                      "|".join(map(re.escape, names)), re.M)


def definition_re(fn):
    """A definition of fn at the start of a line, up to its opening brace
    (in text with comments and strings blanked)."""
    return re.compile(r"^([\w \t*]*)\b%s\s*\([^;{}]*\)\s*\{" % re.escape(fn), re.M)


def head_start(text, offset):
    """The start of the line where the definition whose name is at offset
    begins: "static long\\nfoo(...)" begins a line above the name."""
    lines_before = text[:offset].split("\n")
    i = len(lines_before) - 1
    while i > 0:
        prev = lines_before[i - 1].rstrip()
        if not prev or prev.endswith((";", "}", "*/", "{")) or prev.lstrip().startswith("#"):
            break
        i -= 1
    return len("\n".join(lines_before[:i])) + (1 if i else 0)


def closing_brace(code, start):
    """Offset of the "}" that closes the "{" at start in code (comments and
    strings blanked), or None."""
    depth = 0
    for i in range(start, len(code)):
        depth += {"{": 1, "}": -1}.get(code[i], 0)
        if depth == 0:
            return i
    return None


def insert_after_prototype(text, fn, line):
    """Put line after fn's prototype, where Coccinelle cannot add it."""
    m = prototype_re([fn]).search(text)
    if not m:
        raise RuntimeError("no prototype of %s found for %s" % (fn, line))
    end = m.end() + 1 if text[m.end():m.end() + 1] == "\n" else m.end()
    return text[:end] + line + "\n" + text[end:]


def branch_view(text, offset, cond=None):
    """text as a compilation that builds the line at offset sees it: every
    line of another branch of an #if chain around that line made blank,
    offsets kept.  A head split by #ifdef (one per branch, one body after
    the #endif) is then a head and its body."""
    cond = cond or Conditionals(text)
    ours = {b.chain: b.index for b in cond.branches_at(offset)}
    out = []
    for i, line in enumerate(text.split("\n")):
        branches = cond.lines[i][1] if i < len(cond.lines) else ()
        other = any(b.chain in ours and ours[b.chain] != b.index for b in branches)
        out.append(" " * len(line) if other else line)
    return "\n".join(out)


def visible_line(cond, line, use):
    """The index of the line, line or above it, where a declaration seen at
    offset use goes so that every compilation that builds use sees it: above
    each #if chain around line that use is not inside (a head split by
    #ifdef, whose body every branch shares)."""
    inside = set(cond.branches_at(use))
    while line > 0:
        outer = [b for b in cond.lines[line][1] if b not in inside]
        if not outer:
            break
        line = outer[0].start - 1
    return line


def definitions_of(text, fn):
    """(start of the name, offset of the opening brace, of the closing one)
    of each definition of fn in text, comments and strings blanked to find
    them; a head split by #ifdef counts, in the view of its own branch."""
    code = blank(text)
    found = []
    # Only a definition has a type, the name, its parameters and a brace at
    # the start of a line (a call has "(", "=" or ";" around it).  Counting
    # braces to check the depth would be wrong: #if branches each open one.
    head = re.compile(r"^([\w \t*]*)\b%s\s*\([^;{}]*\)\s*\{" % re.escape(fn), re.M)
    for m in head.finditer(code):
        end = closing_brace(code, m.end() - 1)
        if end is not None:
            found.append((m.start() + len(m.group(1)), m.end() - 1, end))
    # else a head split by #ifdef, whose brace no single match reaches
    split = list(re.finditer(r"^[\w \t*]*\b%s\s*\(" % re.escape(fn), code, re.M)) \
        if not found else []
    if not split:
        return found
    cond = Conditionals(text)
    for m in split:
        if not cond.branches_at(m.start()):
            continue
        view = blank(branch_view(text, m.start(), cond))
        d = head.match(view, m.start())
        end = closing_brace(view, d.end() - 1) if d else None
        if end is not None:
            found.append((m.start() + len(d.group(1)), d.end() - 1, end))
    return found


def insert_after_definition(text, fn, line):
    """Put line after the closing brace of fn's definition (at file scope);
    text as it was if fn is not defined here (the caller reports a handler
    defined elsewhere)."""
    for _, _, end in definitions_of(text, fn):
        return text[:end + 1] + "\n" + line + text[end + 1:]
    return text


def insert_after_export(text, fn, lines):
    """Put lines after fn's definition, and after the EXPORT_SYMBOL*(fn)
    that follows it, with a blank line before them."""
    code = blank(text)
    for m in definition_re(fn).finditer(code):
        end = closing_brace(code, m.end() - 1)
        if end is None:
            continue
        end += 1
        exp = re.compile(r"\n[ \t]*EXPORT_SYMBOL(?:_GPL)?\(\s*%s\s*\);" % re.escape(fn))
        e = exp.match(text, end)
        if e:
            end = e.end()
        return text[:end] + "\n\n" + lines + text[end:]
    raise RuntimeError("no definition of %s found" % fn)


def wrapper_prototype(name, storage="static "):
    """The prototype of the unlocked_ioctl wrapper name, wrapped at 80
    columns with its continuation aligned to the parenthesis."""
    head = "%slong %s(" % (storage, name)
    params = ["struct file *file", "unsigned int cmd", "unsigned long arg"]
    lines, cur = [], head + params[0]
    for p in params[1:]:
        if len(cur) + len(", " + p + ");") > 80:
            lines.append(cur + ",")
            col = len(head)
            cur = "\t" * (col // 8) + " " * (col % 8) + p
        else:
            cur += ", " + p
    return "\n".join(lines + [cur + ");"])


def comment_start(text, line):
    """Offset of the comment block that ends right before offset line (the
    start of a line), or line itself: a declaration goes above the comment
    that describes what follows it."""
    m = re.search(r"(?:^[ \t]*/\*(?:(?!\*/)[\s\S])*\*/[ \t]*\n|^[ \t]*//[^\n]*\n)+\Z",
                  text[:line], re.M)
    return m.start() if m else line


def declare_before_use(text, name):
    """When a struct file_operations that names the wrapper name comes
    before the wrapper's definition (its handler is declared in a header and
    defined late), declare the wrapper before those operations."""
    code = blank(text)
    gen = re.search(r"^DEFINE_BKL_\w*\(%s," % re.escape(name), code, re.M)
    decl = wrapper_prototype(name)
    if not gen or decl in text:
        return text
    for m in FOPS_INIT.finditer(code):
        if m.start() > gen.start():
            break
        end = closing_brace(code, m.end() - 1)
        if end is not None and re.search(r"=\s*%s\b" % re.escape(name), code[m.end():end]):
            line = comment_start(text, code.rfind("\n", 0, m.start()) + 1)
            return text[:line] + decl + "\n\n" + text[line:]
    return text


def wrapper_name(fn):
    """The name ioctl_pushdown.cocci gives the wrapper of handler fn."""
    base = fn.lower() if fn.isupper() else fn
    return (base[:-len("_ioctl")] if base.endswith("_ioctl") else base) + "_unlocked_ioctl"


def free_wrapper_names(text, handlers):
    """{handler: a name for its wrapper} for each of handlers whose usual
    wrapper name text already has (2.6.34's v4l2-dev.c has v4l2_ioctl and a
    v4l2_unlocked_ioctl of its own): fn_bkl_ioctl, numbered if need be."""
    code = blank(text)
    taken = set(re.findall(r"\w+", code))
    out = {}
    for h in sorted(set(handlers)):
        if wrapper_name(h) not in taken:
            continue
        base, n = wrapper_name(h)[:-len("_unlocked_ioctl")] + "_bkl_ioctl", 2
        name = base
        while name in taken:
            name, n = "%s%d" % (base, n), n + 1
        out[h] = name
    return out


def free_record_names(text):
    """{function: a name for its BKL user record} for each function of text
    whose usual record name, fn_bkl, the file has for something else
    (2.6.39's mhvtl.c calls its old handler mhvtl_c_ioctl_bkl):
    fn_bkl_user, numbered if need be."""
    code = blank(text)
    taken = set(re.findall(r"\w+", code))
    out = {}
    for name, _, _, _ in functions(code):
        record = name + "_bkl"
        if record not in taken or re.search(r"^DEFINE_BKL_USER\(%s, %s\);" % (record, name),
                                            text, re.M):
            continue
        base, n = record + "_user", 2
        record = base
        while record in taken:
            record, n = "%s%d" % (base, n), n + 1
        out[name] = record
    return out


def is_macro(text, name):
    """Whether text defines name as an object-like macro."""
    return bool(re.search(r"^[ \t]*#[ \t]*define[ \t]+%s\b(?!\()" % re.escape(name), text, re.M))


def insert_before_operations(text, name, line):
    """Put line, and a blank line, above the struct file_operations
    initialiser (and the comment above it) whose .unlocked_ioctl is name:
    whatever the operations name is declared there."""
    code = blank(text)
    for m in FOPS_INIT.finditer(code):
        end = closing_brace(code, m.end() - 1)
        if end is not None and re.search(r"\.\s*unlocked_ioctl\s*=\s*%s\b" % re.escape(name),
                                         code[m.end():end]):
            at = comment_start(text, code.rfind("\n", 0, m.start()) + 1)
            return text[:at] + line + "\n\n" + text[at:]
    raise RuntimeError("no operations name %s, for %s" % (name, line))


def fops_bodies(text):
    """(start, end) of the body of each struct file_operations initialiser
    in text, comments and strings blanked out first."""
    code = blank(text)
    for m in FOPS_INIT.finditer(code):
        end = closing_brace(code, m.end() - 1)
        if end is not None:
            yield m.end(), end


def c99_designators(text):
    """text with the gcc-style designators ("ioctl: fn", 2.6.3x still had
    some) of each struct file_operations that has an old .ioctl written in
    C99 form (".ioctl = fn"), which the semantic patch matches and sparse
    does not call obsolete."""
    for start, end in reversed(list(fops_bodies(text))):
        body = text[start:end]
        if re.search(r"^\s*ioctl\s*:", body, re.M):
            # one tab of indent, as kernel style wants, for lines rewritten anyway
            body = re.sub(r"^[ \t]*(\w+)\s*:\s*", r"\t.\1 = ", body, flags=re.M)
            text = text[:start] + body + text[end:]
    return text


def ioctls_left(text):
    """The handlers an old-style .ioctl of a struct file_operations still
    names in text, in either designator form."""
    code = blank(text)
    return [m.group(1) for start, end in fops_bodies(text) for m in re.finditer(
        r"(?:\.\s*ioctl\s*=|^\s*ioctl\s*:)\s*(\w+)", code[start:end], re.M)]


def add_include(text, header="linux/locked_ioctl.h", before=None):
    """text with #include <header> among its includes at file scope (unless
    it has it there): in its place when they are sorted, after the last one
    when they are not, where a sorted place would be arbitrary.  before:
    the offset of the header's first use, which the include must precede,
    so only the includes above it count; a file with none there gets it at
    its top, after its leading comments (and a header's include guard)."""
    line = "#include <%s>" % header
    cond = Conditionals(text)
    limit = len(text) if before is None else before
    # at file scope: an include inside an #if (a version test, a CONFIG_)
    # is not seen by every build
    if any(not cond.branches_at(m.start()) and m.start() < limit for m in re.finditer(
            r"^#\s*include\s*<%s>" % re.escape(header), text, re.M)):
        return text
    includes = [m for m in re.finditer(r"^#include <linux/[^>]+>[^\n]*\n", text, re.M)
                if not cond.branches_at(m.start()) and m.end() <= limit]
    if not includes:
        includes = [m for m in re.finditer(r"^#include [^\n]*\n", text, re.M)
                    if not cond.branches_at(m.start()) and m.end() <= limit]
    if not includes:
        at = min(top_of(text), text.rfind("\n", 0, limit) + 1 if before is not None else len(text))
        rest = text[at:]
        return text[:at] + line + "\n" + ("" if rest.startswith(("\n", "#include")) else "\n") + \
            rest
    names = [inc.group(0).split()[1] for inc in includes]
    pos = includes[-1].end()
    for inc, name in zip(includes, names):
        if names == sorted(names) and name > "<%s>" % header:
            pos = inc.start()
            break
    return text[:pos] + line + "\n" + text[pos:]


def top_of(text):
    """Where a line goes at the top of text: after its leading comments and
    blank lines, and after a header's include guard (#ifndef X, #define X)."""
    code = blank_comments(text)
    pos = 0
    while True:
        m = re.match(r"[ \t]*\n|[ \t]*(?=\S)", code[pos:])
        line_end = code.find("\n", pos)
        line_end = len(code) if line_end < 0 else line_end + 1
        if code[pos:line_end].strip():
            break
        if line_end >= len(code) or not m:
            return len(code)
        pos = line_end
    guard = re.match(r"#\s*ifndef\s+(\w+)[ \t]*\n[ \t]*#\s*define\s+(\w+)[ \t]*\n", code[pos:])
    if guard and guard.group(1) == guard.group(2):
        pos += guard.end()
    return pos


def has_unlocked_signature(text, fn):
    """Whether fn, as defined (or else declared) in text, takes a file, a
    command and an argument, and no inode: the unlocked_ioctl signature."""
    code = blank(text)
    m = definition_re(fn).search(code) or prototype_re([fn]).search(code)
    if not m:
        return False
    params = re.search(r"%s\s*\(([^;{}]*?)\)\s*[;{]" % re.escape(fn), m.group(0))
    if not params:
        return False
    params = [p.strip() for p in params.group(1).split(",")]
    return len(params) == 3 and "file" in params[0] and \
        not any("inode" in p for p in params)


def defined_in(text, fn):
    return bool(definitions_of(text, fn))


def prototypes(text, fn):
    """The prototypes of fn in text (comments and strings blanked to find
    them): declarations with a struct parameter, not calls."""
    return [m for m in prototype_re([fn]).finditer(blank(text))
            if "struct" in m.group(0) and not re.search(r"\breturn\b|=", m.group(0))]
