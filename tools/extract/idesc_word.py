"""An instruction descriptor moved through integer casts and shifts.

`encode_instr_descriptor(T.address_of(desc_i), ...)` fills the 32-bit register desc_i (instr_ops.
_instr_desc: the descriptor's fields).  Kernels then place it in the upper half of the 64-bit
operand the way DeepGEMM does and take it out again (mqa_logits_fp8 92240d6 lines 722-725):

    runtime_instr_desc    = T.shift_left(T.cast(desc_i, "uint64"), T.uint64(32))   # desc << 32
    runtime_instr_desc_hi = T.cast(T.shift_right(runtime_instr_desc, T.uint64(32)), "uint32")  # desc

An IdescWord is (descriptor, shift): the integer whose bits are the descriptor's 32 bits shifted
left by `shift` (0 <= shift <= 32, in a 64-bit word).  Casting to a 64-bit integer type keeps it;
shift_left / shift_right by a constant move it (a right shift past its low bit would drop
descriptor bits: refused); casting to a 32-bit type gives the descriptor itself when shift is 0
and the number 0 when shift is 32 (the low half holds none of its bits).  Nothing else is defined
(arithmetic, masks): refused with the reason.
"""

from corpus_notation import ConvertError

WIDE = ("uint64", "int64")
NARROW = ("uint32", "int32")


def is_desc(v) -> bool:
    return isinstance(v, dict) and {"m", "n", "k", "a_dtype", "b_dtype"} <= set(v)


class IdescWord:
    def __init__(self, desc: dict, shift: int):
        self.desc, self.shift = desc, shift


def cast(v, dtype: str):
    """T.cast(v, dtype) of a descriptor or IdescWord; None when v is neither."""
    if is_desc(v):
        v = IdescWord(v, 0)
    if not isinstance(v, IdescWord):
        return None
    if dtype in WIDE:
        return v
    if dtype in NARROW:
        if v.shift == 0:
            return v.desc
        if v.shift == 32:
            return 0
        raise ConvertError(f"a 32-bit cast of an instruction descriptor shifted by {v.shift} (bits split)")
    raise ConvertError(f"a cast of an instruction descriptor to {dtype}")


def shift(op: str, a, b):
    """shift_left / shift_right of an IdescWord (or a descriptor) by a constant; None otherwise."""
    if is_desc(a):
        a = IdescWord(a, 0)
    if not isinstance(a, IdescWord):
        return None
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        raise ConvertError("a shift of an instruction descriptor by an amount the source does not fix")
    s = a.shift + b if op == "shift_left" else a.shift - b
    if s < 0:
        raise ConvertError("a right shift that drops instruction descriptor bits")
    if s > 32:
        raise ConvertError("a left shift that moves instruction descriptor bits past 64")
    return IdescWord(a.desc, s)
