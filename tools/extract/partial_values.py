"""Dictionaries some of whose values the source does not fix.

Host code builds records like `{"config": cfg, "q": q, "deep_gemm": deep_gemm, ...}` where one
entry comes from a module that is not read (deep_gemm).  Python builds the dictionary whatever
that value is; only a read of *that* entry depends on it.  A PartialDict holds the Unresolved of
each such value: reading it (`d[k]`, `d.get(k)`, `.values()`, `.items()`, `.pop(k)`) raises its
UnresolvedError, reading any other entry gives the value; keys, `len`, `in` and iteration over keys
are exact.  `**d` (a call's keyword arguments, `{**d}`) passes the Unresolved on as the value of
that keyword or entry (a call of a helper or a dataclass of the file binds it lazily: only a use
fails).  A key that is not fixed makes the whole display unresolved, as before.
"""


class PartialDict(dict):
    """A dict whose values may be Unresolved (kernel_env.Unresolved): reading one raises."""

    @staticmethod
    def _check(v):
        import kernel_env
        if isinstance(v, kernel_env.Unresolved):
            raise kernel_env.UnresolvedError(v)
        return v

    def __getitem__(self, k):
        return self._check(dict.__getitem__(self, k))

    def get(self, k, default=None):
        return self._check(dict.get(self, k, default))

    def values(self):
        return [self._check(v) for v in dict.values(self)]

    def items(self):
        return [(k, self._check(v)) for k, v in dict.items(self)]

    def pop(self, k, *default):
        return self._check(dict.pop(self, k, *default))

    def copy(self):
        return PartialDict(dict.items(self))

    def raw_items(self):
        """(key, value or Unresolved) pairs, for `**d` (the Unresolved passed on, not read)."""
        return list(dict.items(self))


def build(pairs) -> dict:
    """A dict of (key, value) pairs: a PartialDict when some value is Unresolved."""
    import kernel_env
    d = {}
    partial = False
    for k, v in pairs:
        d[k] = v
        partial = partial or isinstance(v, kernel_env.Unresolved)
    return PartialDict(d) if partial else d


def raw_items(m) -> list:
    return m.raw_items() if isinstance(m, PartialDict) else list(m.items())
