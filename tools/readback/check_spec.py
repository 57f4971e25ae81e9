#!/usr/bin/env python3
"""Compare golden readback files with the reference formulas of rb_model.py
(transcribed from shared/spec/ptx_semantics.md), element by element.

    check_spec.py tests/golden/hw/h200_*.json [--verbose]

A quick, simulator-independent comparer for a fresh run; the C++ replay test
(tests/unit/hw_readback_replay_test.cpp) compares the same files with src/hw.
Prints, per campaign, the records and elements compared and every mismatch
with its coordinates (the first few per record unless --verbose).  Where a
measurement disagrees with the spec, the alternative rule the data supports is
checked too and reported as "measured rule".
Exit status 0 always: disagreement with the spec is a finding, not an error.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rb_model import (LABEL_F16_BASE, canonical_addr, f16_bits_to_float, f32_from_bits,  # noqa: E402
                      label_from_f32_bits, ldmatrix_elem, mma_m16n8_c, mma_m16n8k16_a, mma_m16n8k16_b,
                      phase_model_wavefronts, swizzle_16b_chunks, tma_swizzle, wgmma_a, wgmma_d)

SPAN = {0: 0, 1: 32, 2: 64, 3: 128}


class Tally:
    def __init__(self, name, verbose):
        self.name, self.verbose = name, verbose
        self.records = self.elements = self.mismatches = self.bad_records = 0

    def record(self, label, compared, mism, show=4):
        self.records += 1
        self.elements += compared
        self.mismatches += len(mism)
        if mism:
            self.bad_records += 1
            print('  MISMATCH %s: %d of %d elements' % (label, len(mism), compared))
            for m in (mism if self.verbose else mism[:show]):
                print('      ', m)

    def summary(self):
        print('%-28s records %4d  elements %7d  mismatches %7d  (records with mismatches: %d)'
              % (self.name, self.records, self.elements, self.mismatches, self.bad_records))


def expand_runs(runs):
    out = []
    for first, src, count in runs:
        assert first == len(out)
        out.extend(src + i if src >= 0 else src for i in range(count))
    return out


def tma_expected(r, padded_rows):
    """{element index: source} for the box; padded_rows = rows of a swizzled box take
    max(inner bytes, span) bytes (measured) instead of the inner bytes (dense, spec)."""
    E = r['elem_bytes']
    bw, bh = r['box']
    gw, gh = r['gdim']
    c0, r0 = r['origin']
    pe = r['pitch_bytes'] // E
    pitch = bw * E
    if padded_rows and r['swizzle'] in SPAN:
        pitch = max(pitch, SPAN[r['swizzle']])
    exp = {}
    for i in range(bh):
        for j in range(bw):
            a = tma_swizzle(r['smem_offset'] + i * pitch + j * E, r['swizzle'])
            gr, gc = r0 + i, c0 + j
            exp[a // E] = gr * pe + gc if (0 <= gr < gh and 0 <= gc < gw) else -2
    return exp


def check_tma(doc, verbose):
    out = []
    for padded in (False, True):
        t = Tally('tma (%s)' % ('measured rule: swizzled rows padded to the span' if padded
                               else 'spec: dense rows'), verbose)
        quiet = padded is False and not verbose
        for r in doc['records']:
            if r['status'] != 'ok':
                continue
            src = expand_runs(r['runs'])
            exp = tma_expected(r, padded)
            mism = [('smem element %d (byte %d)' % (i, i * r['elem_bytes']), 'expected', exp.get(i, -1), 'got', v)
                    for i, v in enumerate(src) if exp.get(i, -1) != v]
            label = 'tma case %d (%s swizzle %d, %d-byte, box %s, offset %d)' % (
                r['id'], r['tag'], r['swizzle'], r['elem_bytes'], r['box'], r['smem_offset'])
            t.record(label, len(src), mism, show=0 if quiet else 4)
        out.append(t)
    statuses = {}
    for r in doc['records']:
        key = (r['tag'], r['status'], r.get('error', ''))
        statuses[key] = statuses.get(key, 0) + 1
    print('  tma status by tag:', ', '.join('%s/%s%s: %d' % (k[0], k[1], ' (%s)' % k[2] if k[2] else '', v)
                                           for k, v in sorted(statuses.items())))
    return out


def uniform_pair_rule(op, width, addr, mask):
    """Measured H200 rule: an 8- or 16-byte *load* whose addresses satisfy T(n) == T(n^1) for
    all n, or T(n) == T(n^2) for all n, is served in phases twice as wide (32 / 16 threads)."""
    if op == 'ld' and width in (8, 16) and mask == 0xFFFFFFFF and (
            all(addr[n] == addr[n ^ 1] for n in range(32)) or all(addr[n] == addr[n ^ 2] for n in range(32))):
        per = {8: 32, 16: 16}[width]
        tot = 0
        for ph in range(32 // per):
            words = {}
            for t in range(ph * per, (ph + 1) * per):
                for wd in range(addr[t] // 4, (addr[t] + width) // 4):
                    words.setdefault(wd % 32, set()).add(wd)
            tot += max(len(s) for s in words.values())
        return tot
    return phase_model_wavefronts(op, width, addr, mask)[0]


def check_banks(doc, verbose):
    t1 = Tally('banks (spec: textbook phases)', verbose)
    t2 = Tally('banks (measured rule: + uniform pairs)', verbose)
    for r in doc['records']:
        mask = int(r['mask'], 16)
        w = r['measured']['wavefronts']
        model = phase_model_wavefronts(r['op'], r['width'], r['addr'], mask)[0]
        t1.record(r['name'], 1, [] if model == w else [('wavefronts expected', model, 'measured', w,
                                                         'conflicts', r['measured']['conflicts'])])
        rule = uniform_pair_rule(r['op'], r['width'], r['addr'], mask)
        t2.record(r['name'], 1, [] if rule == w else [('wavefronts expected', rule, 'measured', w)])
    return [t1, t2]


def check_ldmatrix(doc, verbose):
    t = Tally('ldmatrix/stmatrix', verbose)
    for r in doc['records']:
        ra, num, tr = r['row_addr'], r['num'], r['trans']
        label = '%s.x%d%s' % (r['op'], num, '.trans' if tr else '')
        mism = []
        if r['op'] == 'ldmatrix':
            n = 0
            for th in range(32):
                for j in range(num):
                    for h in range(2):
                        mat, row, col = ldmatrix_elem(th, j, h, tr)
                        exp = (ra[8 * mat + row] + 2 * col) // 2
                        got = (r['regs'][th][j] >> (16 * h)) & 0xFFFF
                        n += 1
                        if exp != got:
                            mism.append(('thread %d reg %d half %d' % (th, j, h), 'matrix/row/col', (mat, row, col),
                                         'expected smem element', exp, 'got', got))
            t.record(label, n, mism)
        else:
            exp = {}
            for th in range(32):
                for j in range(num):
                    for h in range(2):
                        mat, row, col = ldmatrix_elem(th, j, h, tr)
                        exp[ra[8 * mat + row] + 2 * col] = 1 + 8 * th + 2 * j + h
            got = {o: v for o, v in r['smem_nonzero']}
            for o in sorted(set(exp) | set(got)):
                if exp.get(o) != got.get(o):
                    mism.append(('smem byte %d' % o, 'expected', exp.get(o), 'got', got.get(o)))
            t.record(label, len(exp), mism)
    return [t]


def check_mma(doc, verbose):
    t = Tally('mma.sync m16n8k16', verbose)
    for r in doc['records']:
        A = [[0.0] * 16 for _ in range(16)]
        B = [[0.0] * 8 for _ in range(16)]
        C = [[0.0] * 8 for _ in range(16)]
        for th in range(32):
            for i in range(8):
                m, k = mma_m16n8k16_a(th, i)
                A[m][k] = f16_bits_to_float((r['a'][th][i // 2] >> (16 * (i & 1))) & 0xFFFF)
            for i in range(4):
                k, n = mma_m16n8k16_b(th, i)
                B[k][n] = f16_bits_to_float((r['b'][th][i // 2] >> (16 * (i & 1))) & 0xFFFF)
                m, n = mma_m16n8_c(th, i)
                C[m][n] = f32_from_bits(r['c'][th][i])
        mism = []
        for th in range(32):
            for i in range(4):
                m, n = mma_m16n8_c(th, i)
                ref = sum(A[m][k] * B[k][n] for k in range(16)) + C[m][n]
                got = f32_from_bits(r['d'][th][i])
                if got != ref:
                    mism.append(('thread %d d%d = (m %d, n %d)' % (th, i, m, n), 'expected', ref, 'got', got))
        t.record(r['name'], 128, mism)
    return [t]


def decode_desc(hexs):
    d = int(hexs, 16)
    f = lambda lo, bits: (d >> lo) & ((1 << bits) - 1)
    return {'start': f(0, 14) << 4, 'lbo': f(16, 14) << 4, 'sbo': f(32, 14) << 4,
            'base_offset': f(49, 3), 'span': {0: 0, 1: 128, 2: 64, 3: 32}[f(62, 2)]}


def wgmma_operand_addr(desc, major, mn, k, rule):
    """rule 'spec': canonical layout with the swizzle on the absolute address, base offset
    ignored; rule 'measured': XOR phase = ((addr >> 7) - base_offset) mod lines-per-period."""
    a = canonical_addr(major, desc['span'], desc['start'], desc['lbo'], desc['sbo'], mn, k)
    if rule == 'spec' or desc['span'] == 0 or desc['base_offset'] == 0:
        return a
    pre = swizzle_16b_chunks(a, desc['span'])   # involution: back to the unswizzled address
    mask = desc['span'] // 16 - 1
    return pre ^ ((((pre >> 7) - desc['base_offset']) & mask) << 4)


def wgmma_rs_reference(r, db, rule):
    """D = A B for an A-from-registers record: A through the PTX A-fragment map, B through its
    descriptor from the recorded image."""
    img = {}
    lr = r['image']['label_region']
    if lr:
        for o in range(lr[0], lr[1], 2):
            img[o] = LABEL_F16_BASE + o // 2
    for o, v in r['image']['nonzero']:
        img[o] = v
    A = [[0.0] * 16 for _ in range(64)]
    for tid in range(128):
        for i in range(8):
            m, k = wgmma_a(tid, i)
            A[m][k] = f16_bits_to_float((r['a_regs'][tid][i // 2] >> (16 * (i & 1))) & 0xFFFF)
    N = r['n']
    B = [[f16_bits_to_float(img.get(wgmma_operand_addr(db, 'MN' if r['trans_b'] else 'K', n, k, rule), 0))
          for n in range(N)] for k in range(16)]
    return [[sum(A[m][k] * B[k][n] for k in range(16)) for n in range(N)] for m in range(64)]


def check_wgmma(doc, verbose):
    out = []
    for rule in ('spec', 'measured'):
        t = Tally('wgmma (%s)' % ('spec: absolute swizzle' if rule == 'spec'
                                  else 'measured rule: phase = line - base_offset'), verbose)
        for r in doc['records']:
            N = r['n']
            h = r['d_hex']
            words = [int(h[8 * i:8 * i + 8], 16) for i in range(len(h) // 8)]
            mism = []
            da, db = decode_desc(r['desc_a']), decode_desc(r['desc_b'])
            if r['probe'] == 'rs':
                rs_D = wgmma_rs_reference(r, db, rule)
            for tid in range(128):
                for i in range(N // 2):
                    m, n = wgmma_d(tid, i)
                    u = words[tid * (N // 2) + i]
                    if r['probe'] == 'rs':
                        exp, got = rs_D[m][n], f32_from_bits(u)
                    elif r['probe'] == 'id':
                        exp, got = 256.0 * (m + 1) + n, f32_from_bits(u)
                    else:
                        lab = label_from_f32_bits(u)
                        got = None if lab is None else 2 * lab
                        if r['probe'] == 'a':
                            exp = wgmma_operand_addr(da, 'MN' if r['trans_a'] else 'K', m, n, rule)
                        else:
                            exp = wgmma_operand_addr(db, 'MN' if r['trans_b'] else 'K', n, m % 16, rule)
                    if exp != got:
                        mism.append(('thread %d d%d = (m %d, n %d)' % (tid, i, m, n), 'expected', exp, 'got', got))
            t.record(r['name'], 128 * N // 2, mism, show=0 if (rule == 'spec' and not verbose) else 4)
        out.append(t)
    return out


def check_tcgen05(doc, verbose):
    """Spec formulas for the Blackwell campaign (never run by the authors: no B200)."""
    from rb_model import TCGEN05_REGS, datapath_lane, tmem_ld_cell
    sentinel = 0xDEADBEEF
    mma_fill = {2: ('D', 0, 128), 3: ('F', 0, 64), 4: ('F', 1, 64)}

    def cell_value(fill, lane, col):
        if fill in (0, 1):
            return (lane << 16) | col
        layout, sub, m_total = mma_fill[fill]
        for m in range(m_total):
            if datapath_lane(layout, m, sub) == lane and col < 64:
                return f32_bits_exact(256.0 * (m + 1) + col)
        return sentinel

    t = Tally('tcgen05 (spec)', verbose)
    for r in doc['records']:
        label = '%s %s.x%d%s fill %d lane_off %d' % (r['kind'], r['shape'], r['num'], '.pack' if r['pack'] else '',
                                                     r['fill'], r['lane_off'])
        mism = []
        if r['kind'] == 'ld':
            n = TCGEN05_REGS[r['shape']] * r['num']
            h = r['regs_hex']
            for tid in range(128):
                w, th = tid // 32, tid % 32
                for i in range(n):
                    got = int(h[8 * (tid * n + i):8 * (tid * n + i) + 8], 16)
                    if r['pack']:
                        lo = tmem_ld_cell(r['shape'], r['num'], th, i, 32 * w + r['lane_off'], 0, 0)
                        lane, f = lo[0], lo[1]
                        col0 = r['col_off'] + 2 * f
                        exp = (cell_value(r['fill'], lane, col0) & 0xFFFF) | \
                              ((cell_value(r['fill'], lane, col0 + 1) & 0xFFFF) << 16)
                        where = (lane, col0)
                    else:
                        where = tmem_ld_cell(r['shape'], r['num'], th, i, 32 * w + r['lane_off'], r['col_off'],
                                             r['imm'] or 0)
                        exp = cell_value(r['fill'], *where)
                    if exp != got:
                        mism.append(('warp %d thread %d reg %d -> (lane, col) %s' % (w, th, i, where),
                                     'expected 0x%08x got 0x%08x' % (exp, got)))
            t.record(label, 128 * n, mism)
        elif r['kind'] == 'st':
            n = TCGEN05_REGS[r['shape']] * r['num']
            exp = {}
            for tid in range(128):
                w, th = tid // 32, tid % 32
                for i in range(n):
                    v = 0x80000000 | (w << 24) | (th << 16) | i
                    if r['pack']:
                        lane, f = tmem_ld_cell(r['shape'], r['num'], th, i, 32 * w + r['lane_off'], 0, 0)
                        exp[(lane, r['col_off'] + 2 * f)] = v & 0xFFFF
                        exp[(lane, r['col_off'] + 2 * f + 1)] = v >> 16
                    else:
                        exp[tmem_ld_cell(r['shape'], r['num'], th, i, 32 * w + r['lane_off'], r['col_off'],
                                         r['imm'] or 0)] = v
            h = r['tmem_hex']
            for lane in range(128):
                for col in range(64):
                    got = int(h[8 * (lane * 64 + col):8 * (lane * 64 + col) + 8], 16)
                    e = exp.get((lane, col), sentinel)
                    if r['pack'] and (lane, col) in exp:
                        got &= 0xFFFF   # upper halves after .unpack::16b: unspecified (spec section 10.6)
                    if e != got:
                        mism.append(('lane %d col %d' % (lane, col), 'expected 0x%08x got 0x%08x' % (e, got)))
            t.record(label, 128 * 64, mism)
        else:
            print('  tcgen05.alloc addresses (256,128,64,32,32 columns):', ['0x%08x' % a for a in r['addresses']])
    return [t]


def f32_bits_exact(x):
    import struct
    return struct.unpack('<I', struct.pack('<f', x))[0]


CHECKS = {'tcgen05': check_tcgen05, 'tma_tile_load': check_tma, 'smem_bank_conflicts': check_banks, 'ldmatrix_stmatrix': check_ldmatrix,
          'mma_sync_m16n8k16': check_mma, 'wgmma_m64nNk16': check_wgmma}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='+')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()
    tallies = []
    for f in a.files:
        doc = json.load(open(f))
        dev = doc['device']
        print('== %s: %s (%s), CC %s, driver %s, CUDA %s, %s' % (os.path.basename(f), doc['campaign'], dev['gpu'],
                                                              dev['compute_capability'], dev['driver'], dev['cuda'],
                                                              dev['date']))
        tallies += CHECKS[doc['campaign']](doc, a.verbose)
    print()
    for t in tallies:
        t.summary()


if __name__ == '__main__':
    main()
