# SPDX-License-Identifier: GPL-2.0
"""The preprocessor conditionals of a C file: which #if branches each line
is in, and what each branch's condition evaluates to for a given set of
macros, with the macros nobody knows left unknown (three-valued logic)."""
import re

# Comments and literals, blanked before the directives are read: a "#if" in
# a comment is no directive.  Directives themselves are kept.
COMMENTS_RE = re.compile(r"""/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",
                         re.S)
DIRECTIVE_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b(.*)$")


def blank_comments(text):
    """text with its comments and literals made spaces, every offset and
    newline kept."""
    return COMMENTS_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


class Branch:
    """One branch of an #if chain: its directive (if, ifdef, ifndef, elif or
    else), its expression as written, and the branches before it in the
    chain (their conditions are false where this one is taken)."""

    def __init__(self, chain, index, kind, expr, line, start=None):
        self.chain, self.index, self.kind, self.expr, self.line = chain, index, kind, expr, line
        # the line of the chain's #if
        self.start = start or line
        self.previous = []

    def own_condition(self):
        """This branch's own test as an #if expression, None for #else."""
        if self.kind == "ifdef":
            return "defined(%s)" % self.expr
        if self.kind == "ifndef":
            return "!defined(%s)" % self.expr
        if self.kind == "else":
            return None
        return self.expr

    def conditions(self):
        """(expression, wanted truth) pairs that together take this branch."""
        conds = [(b.own_condition(), False) for b in self.previous]
        own = self.own_condition()
        if own is not None:
            conds.append((own, True))
        return conds


class Conditionals:
    """The #if structure of text.  branches_at(offset) is the list of
    branches, outermost first, that a line at offset is in."""

    def __init__(self, text):
        self.lines = []           # (start offset, branches) of each line
        # the object-like macros the file defines: name -> [(body, the
        # branches the #define is in)]
        self.defines = {}
        stack, chains, pos = [], 0, 0
        lines = blank_comments(text).split("\n")
        i = 0
        while i < len(lines):
            logical, first = lines[i], i
            while logical.endswith("\\") and i + 1 < len(lines):
                i += 1
                logical = logical[:-1] + " " + lines[i]
            for j in range(first, i + 1):
                self.lines.append((pos, tuple(stack)))
                pos += len(lines[j]) + 1
            i += 1
            m = DIRECTIVE_RE.match(logical)
            if not m:
                continue
            kind, rest = m.group(1), m.group(2).strip()
            if kind in ("if", "ifdef", "ifndef"):
                chains += 1
                stack.append(Branch(chains, 0, kind, rest.split()[0] if kind != "if" and rest
                                    else rest, first + 1))
            elif kind in ("elif", "else") and stack:
                prev = stack.pop()
                b = Branch(prev.chain, prev.index + 1, kind, rest, first + 1, prev.start)
                b.previous = prev.previous + [prev]
                stack.append(b)
            elif kind == "endif" and stack:
                stack.pop()
            elif kind == "define":
                d = re.match(r"(\w+)(\(?)\s*(.*)$", rest)
                if d and not d.group(2):
                    self.defines.setdefault(d.group(1), []).append(
                        (d.group(3).strip(), tuple(stack)))
        self.starts = [s for s, _ in self.lines]
        self.drop_include_guard(lines)

    def drop_include_guard(self, lines):
        """A header's include guard (#ifndef X, #define X, ... #endif around
        the whole file) is file scope, not a branch."""
        code = [(i, line.strip()) for i, line in enumerate(lines) if line.strip()]
        if len(code) < 3:
            return
        first = re.match(r"#\s*ifndef\s+(\w+)$", code[0][1])
        second = re.match(r"#\s*define\s+(\w+)\s*$", code[1][1])
        if not first or not second or first.group(1) != second.group(1) or \
           not re.match(r"#\s*endif\b", code[-1][1]):
            return
        guard = self.lines[code[1][0]][1]
        if len(guard) != 1 or any(guard[0] not in branches[:1]
                                  for _, branches in self.lines[code[0][0] + 1:code[-1][0]]):
            return
        self.lines = [(s, tuple(b for b in branches if b is not guard[0]))
                      for s, branches in self.lines]
        for name, defs in self.defines.items():
            self.defines[name] = [(body, tuple(b for b in branches if b is not guard[0]))
                                  for body, branches in defs]

    def branches_at(self, offset):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return list(self.lines[lo][1]) if self.lines else []

    def first_branches(self, text):
        """text with every line of a later branch of an #if chain (#elif,
        #else) made blank, offsets kept: one compilation's view, in which
        a function whose head each branch writes with its own brace has
        one head and one brace."""
        out = []
        lines = text.split("\n")
        for i, line in enumerate(lines):
            branches = self.lines[i][1] if i < len(self.lines) else ()
            later = any(b.index > 0 for b in branches)
            out.append(" " * len(line) if later else line)
        return "\n".join(out)

    def exclusive(self, a, b):
        """Whether offsets a and b are in different branches of one chain,
        so that no compilation sees both."""
        ours = {br.chain: br.index for br in self.branches_at(a)}
        return any(br.chain in ours and ours[br.chain] != br.index
                   for br in self.branches_at(b))

    def tests(self, macro):
        """Whether a directive of the file tests macro."""
        word = re.compile(r"\b%s\b" % re.escape(macro))
        seen = set()
        for _, branches in self.lines:
            for br in branches:
                if br not in seen:
                    seen.add(br)
                    if br.expr and word.search(br.expr):
                        return True
        return False


# ---------------------------------------------------------------------------
# #if expressions, evaluated to an int, or None where a macro nobody knows
# decides it.

TOKEN_RE = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|(\w+)|(&&|\|\||<<|>>|<=|>=|==|!=|"
                      r"[-+*/%<>!~&|^?:(),]))")


class Unparsable(Exception):
    pass


def tokenize(expr):
    tokens, pos = [], 0
    expr = expr.rstrip()
    while pos < len(expr):
        m = TOKEN_RE.match(expr, pos)
        if not m:
            raise Unparsable(expr)
        if m.group(1):
            tokens.append(("num", int(m.group(1), 0)))
        elif m.group(2):
            tokens.append(("id", m.group(2)))
        else:
            tokens.append(("op", m.group(3)))
        pos = m.end()
    return tokens


# binary operators and their precedence
BINARY = {"*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "<": 7, "<=": 7,
          ">": 7, ">=": 7, "==": 6, "!=": 6, "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1}


def apply_binary(op, a, b):
    if op == "&&":
        if a == 0 or b == 0:
            return 0
        return None if a is None or b is None else 1
    if op == "||":
        if (a is not None and a != 0) or (b is not None and b != 0):
            return 1
        return None if a is None or b is None else 0
    if a is None or b is None:
        return None
    if op in ("/", "%") and b == 0:
        return None
    return int({"*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a % b,
                "+": lambda: a + b, "-": lambda: a - b, "<<": lambda: a << b,
                ">>": lambda: a >> b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b, "==": lambda: a == b,
                "!=": lambda: a != b, "&": lambda: a & b, "^": lambda: a ^ b,
                "|": lambda: a | b}[op]())


class Evaluator:
    """Evaluates #if expressions.  env maps a macro to its value (an int), to
    False when it is known not to be defined, or is missing when nobody
    knows; functions maps a function-like macro to a Python function of
    its int arguments; defines are the file's own object-like macros."""

    def __init__(self, env, functions=None, defines=None):
        self.env, self.functions, self.defines = env, functions or {}, defines or {}

    depth = 0

    def evaluate(self, expr, depth=None):
        """expr's value, or None when it depends on an unknown macro (or
        cannot be read)."""
        try:
            if depth is not None:
                self.depth = depth
            self.tokens, self.pos = tokenize(expr), 0
            value = self.ternary()
            if self.pos != len(self.tokens):
                return None
            return value
        except (Unparsable, IndexError, RecursionError):
            return None

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, op=None):
        tok = self.tokens[self.pos]
        if op is not None and tok != ("op", op):
            raise Unparsable(op)
        self.pos += 1
        return tok

    def ternary(self):
        cond = self.binary(1)
        if self.peek() != ("op", "?"):
            return cond
        self.take("?")
        a = self.ternary()
        self.take(":")
        b = self.ternary()
        if cond is None:
            return a if a == b else None
        return a if cond else b

    def binary(self, level):
        left = self.unary()
        while True:
            kind, op = self.peek()
            if kind != "op" or op not in BINARY or BINARY[op] < level:
                return left
            self.take()
            right = self.binary(BINARY[op] + 1)
            left = apply_binary(op, left, right)

    def unary(self):
        kind, val = self.take()
        if kind == "num":
            return val
        if kind == "op":
            if val == "(":
                v = self.ternary()
                self.take(")")
                return v
            operand = self.unary()
            if operand is None:
                return None
            return {"!": lambda: int(not operand), "~": lambda: ~operand,
                    "-": lambda: -operand, "+": lambda: operand}[val]()
        if val == "defined":
            paren = self.peek() == ("op", "(")
            if paren:
                self.take("(")
            _, name = self.take()
            if paren:
                self.take(")")
            return self.is_defined(name)
        if self.peek() == ("op", "("):
            args = self.arguments()
            fn = self.functions.get(val)
            if fn is None or any(a is None for a in args):
                return None
            return fn(*args)
        return self.value_of(val)

    def arguments(self):
        self.take("(")
        args = []
        while True:
            args.append(self.ternary())
            if self.peek() == ("op", ")"):
                self.take(")")
                return args
            self.take(",")

    def inner(self):
        """An evaluator for the file's own macros, one level deeper."""
        if self.depth >= 8:
            raise RecursionError("macros nest too deep")
        ev = Evaluator(self.env, self.functions, self.defines)
        ev.depth = self.depth + 1
        return ev

    def file_defines(self, name):
        """[(body, taken)] of the file's #defines of name, each with whether
        the branches it sits in are taken (1, 0 or None)."""
        return [(body, taken(branches, self.inner()))
                for body, branches in self.defines.get(name, [])]

    def is_defined(self, name):
        if name in self.env:
            return int(self.env[name] is not False)
        seen = [t for _, t in self.file_defines(name)]
        if any(t == 1 for t in seen):
            return 1
        if all(t == 0 for t in seen):
            # a macro the file never defines: only the file's own are known
            return 0 if seen else None
        return None

    def value_of(self, name):
        if name in self.env:
            v = self.env[name]
            return 0 if v is False else v
        seen = self.file_defines(name)
        if not seen:
            return None
        live = [body for body, t in seen if t != 0]
        if not live:
            return 0
        if len(live) == 1 and all(t == 1 for b, t in seen if t != 0):
            return self.inner().evaluate(live[0], self.depth + 1)
        return None


def taken(branches, evaluator):
    """Whether the branches (outermost first) are all taken: 1, 0, or None
    where an unknown macro decides."""
    result = 1
    for br in branches:
        for expr, want in br.conditions():
            v = evaluator.evaluate(expr)
            if v is None:
                result = None
            elif bool(v) != want:
                return 0
    return result
