#!/usr/bin/env python3
"""Write the self-contained readback programs and their manifests.

    readback_gen.py --target sm90  --out DIR   # H200 campaigns (TMA, banks, fragments, wgmma)
    readback_gen.py --target sm100 --out DIR   # Blackwell tcgen05 campaign (B200)

DIR receives one .cu per program, `manifest_<campaign>.json` (the
descriptions the programs were generated from; collect.py joins them with the
raw program output) and any binary inputs (wgmma_images.bin).
Only the Python standard library is used.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_banks  # noqa: E402
import gen_frag  # noqa: E402
import gen_tma  # noqa: E402
import gen_wgmma  # noqa: E402


def write(path, text, mode='w'):
    with open(path, mode) as f:
        f.write(text)


def gen_sm90(out):
    tma = gen_tma.cases()
    write(os.path.join(out, 'tma_tile.cu'), gen_tma.emit(tma))
    write(os.path.join(out, 'manifest_tma.json'), json.dumps({'cases': tma}))

    pats = gen_banks.patterns()
    write(os.path.join(out, 'banks.cu'), gen_banks.emit(pats))
    for p in pats:
        p['kernel'] = gen_banks.kernel_name(p)
    write(os.path.join(out, 'manifest_banks.json'), json.dumps({'patterns': pats}))

    ldst = gen_frag.ldst_cases()
    exps = gen_frag.mma_experiments()
    write(os.path.join(out, 'frag.cu'), gen_frag.emit(ldst, exps))
    write(os.path.join(out, 'manifest_frag.json'), json.dumps({'ldst': ldst, 'mma': exps}))

    wg = gen_wgmma.experiments()
    write(os.path.join(out, 'wgmma.cu'), gen_wgmma.emit(wg))
    with open(os.path.join(out, 'wgmma_images.bin'), 'wb') as f:
        for e in wg:
            f.write(gen_wgmma.image_bytes(e))
    for e in wg:
        e['desc_a'] = '0x%016x' % e['desc_a']
        e['desc_b'] = '0x%016x' % e['desc_b']
    write(os.path.join(out, 'manifest_wgmma.json'), json.dumps({'experiments': wg}))
    return ['tma_tile', 'banks', 'frag', 'wgmma']


def gen_sm100(out):
    import gen_tcgen05
    progs = gen_tcgen05.generate(out)
    return progs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--target', choices=['sm90', 'sm100'], required=True)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    progs = gen_sm90(a.out) if a.target == 'sm90' else gen_sm100(a.out)
    print(' '.join(progs))


if __name__ == '__main__':
    main()
