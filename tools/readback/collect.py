#!/usr/bin/env python3
"""Turn a raw readback pack (run_h200.sh output) into golden files.

    collect.py --raw OUT/raw_sm90.tar.gz --out tests/golden/hw [--prefix h200]

Writes one JSON file per campaign (docs/readback.md describes every field):
  <prefix>_tma.json        campaign 1   TMA tile loads
  <prefix>_banks.json      campaign 2   bank conflicts (Nsight Compute)
  <prefix>_ldmatrix.json   campaign 3   ldmatrix / stmatrix fragments
  <prefix>_mma_sync.json   campaign 3   mma.sync m16n8k16 fragments
  <prefix>_wgmma.json      campaigns 3 + 4   wgmma accumulators and descriptors
Every file starts with the device block (GPU, compute capability, driver, CUDA,
Nsight Compute version, date) read from the pack's device.json.
"""

import argparse
import csv
import io
import json
import os
import tarfile

SCHEMA = 'tirx-readback/1'


class Pack:
    """Read files from a raw pack: a .tar.gz from run_h200.sh or an unpacked directory."""

    def __init__(self, path):
        self.path = path
        self.tar = tarfile.open(path) if os.path.isfile(path) else None

    def text(self, name):
        if self.tar:
            for m in self.tar.getmembers():
                if m.name.endswith('/' + name) or m.name == name:
                    return self.tar.extractfile(m).read().decode()
            raise FileNotFoundError(name)
        for root, _, files in os.walk(self.path):
            if name in files:
                return open(os.path.join(root, name)).read()
        raise FileNotFoundError(name)

    def jsonl(self, name):
        return [json.loads(l) for l in self.text(name).splitlines() if l.strip()]


def device_block(pack):
    d = json.loads(pack.text('device.json'))
    smi = [x.strip() for x in d['nvidia_smi'].split(',')]
    nvcc = d['nvcc']
    cuda = nvcc.split('release')[1].split(',')[0].strip() if 'release' in nvcc else nvcc
    ver = nvcc.split(', V')[1].split()[0] if ', V' in nvcc else ''
    dev = {'gpu': smi[0], 'compute_capability': smi[2], 'driver': smi[1],
           'cuda': '%s (nvcc V%s)' % (cuda, ver), 'date': d['date']}
    if d.get('ncu'):
        dev['ncu'] = d['ncu']
    if len(smi) > 4:
        dev['sm_clock_idle_max'] = '%s / %s' % (smi[3], smi[4])
    return dev


def header(dev, campaign, generator, fmt, target='sm90'):
    return {'schema': SCHEMA, 'campaign': campaign, 'device': dev,
            'generator': 'tools/readback/readback_gen.py --target %s (%s)' % (target, generator),
            'format': fmt}


def dump(path, obj):
    # one record per line: diffs stay readable, the file stays valid JSON
    recs = obj.pop('records')
    with open(path, 'w') as f:
        f.write(json.dumps(obj, indent=1)[:-2])
        f.write(',\n "records": [\n')
        f.write(',\n'.join(json.dumps(r, separators=(',', ':')) for r in recs))
        f.write('\n ]\n}\n')
    obj['records'] = recs


def runs_of(src):
    """Run-length form of a per-element source list: [elem, src, count] where a run of
    sources >= 0 counts up by one per element and a run of codes < 0 repeats the code."""
    out = []
    i = 0
    n = len(src)
    while i < n:
        v = src[i]
        j = i + 1
        if v >= 0:
            while j < n and src[j] == v + (j - i):
                j += 1
        else:
            while j < n and src[j] == v:
                j += 1
        out.append([i, v, j - i])
        i = j
    return out


TMA_FORMAT = (
    'One record per TMA case (cp.async.bulk.tensor.2d tile load, tensor map from '
    'cuTensorMapEncodeTiled, INTERLEAVE_NONE, L2 promotion none, OOB fill none). The global '
    'tensor has gdim=[cols, rows] elements of elem_bytes bytes, row pitch pitch_bytes; element '
    '(row r, col c) holds label r*(pitch_bytes/elem_bytes)+c ("source index"; padding columns '
    'are labelled too). The box of box=[cols, rows] elements starting at origin=[col, row] is '
    'loaded to shared byte address smem_offset past a 1024-byte aligned base that was first '
    'filled with 0xFF. swizzle is the CUtensorMapSwizzle value (0 none, 1 32B, 2 64B, 3 128B, '
    '4 128B_ATOM_32B, 5 128B_ATOM_32B_FLIP_8B, 6 128B_ATOM_64B). status: ok | encode_failed '
    '(encode = CUresult) | cuda_error (error = cudaGetErrorString, the process was lost) | '
    'timeout. For ok cases region_bytes bytes from the aligned base were read back and runs '
    'describes every element of that region ((region_bytes/elem_bytes) elements): [first '
    'element, source, count]; a source >= 0 counts up by one per element of the run, -1 = '
    'untouched (still 0xFF), -2 = zero (out-of-bounds fill), -3 = any other value.')


def collect_tma(pack, dev):
    man = {c['id']: c for c in json.loads(pack.text('manifest_tma.json'))['cases']}
    by_id = {}
    for d in pack.jsonl('raw_tma.jsonl'):
        if 'process_rc' in d:
            by_id.setdefault(d['id'], {})['process_rc'] = d['process_rc']
            continue
        by_id.setdefault(d['id'], {}).update(d)
    recs = []
    for cid in sorted(man):
        c = man[cid]
        r = {'id': cid, 'tag': c['tag'], 'swizzle': c['swizzle'], 'elem_bytes': c['elem_bytes'],
             'gdim': c['gdim'], 'pitch_bytes': c['pitch'], 'box': c['box'], 'origin': c['origin'],
             'smem_offset': c['smem_offset']}
        d = by_id.get(cid)
        if d is None:
            r['status'] = 'not_run'
        else:
            r['status'] = d.get('status', 'process_failed')
            for k in ('encode', 'error', 'where', 'process_rc', 'region_bytes'):
                if k in d:
                    r[k] = d[k]
            if 'src' in d:
                r['runs'] = runs_of(d['src'])
        recs.append(r)
    obj = header(dev, 'tma_tile_load', 'gen_tma.py', TMA_FORMAT)
    obj['records'] = recs
    return obj


BANK_METRICS = {
    'wf_ld': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
    'wf_st': 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
    'cf_ld': 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
    'cf_st': 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
    'inst_ld': 'smsp__sass_inst_executed_op_shared_ld.sum',
    'inst_st': 'smsp__sass_inst_executed_op_shared_st.sum',
}

BANK_FORMAT = (
    'One record per access pattern: a kernel of one warp (32 threads) executes the '
    'instruction reps times and touches shared memory in no other way; repetition i adds '
    '8192*i bytes to every address (same banks, defeats ptxas merging). op: ld | st '
    '(ld/st.shared.{u32,v2.u32,v4.u32}: width 4/8/16 bytes per thread) | ldmatrix | stmatrix '
    '(.m8n8.b16, width = number of matrices 1/2/4, trans = .trans; thread 8j+i supplies row i '
    'of matrix j). addr: the 32 per-thread byte offsets from a 1024-byte aligned base; mask: '
    'active threads (hex). measured.wavefronts / measured.conflicts: per access (Nsight Compute '
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum and '
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum divided by reps, op_st for '
    'st/stmatrix); ncu holds the raw kernel-wide values (ldmatrix/stmatrix are not counted by '
    'smsp__sass_inst_executed_op_shared_*). ncu --clock-control none.')


def _num(s):
    s = s.replace(',', '').strip()
    return float(s) if s not in ('', 'n/a') else None


def collect_banks(pack, dev):
    pats = json.loads(pack.text('manifest_banks.json'))['patterns']
    rows = list(csv.reader(io.StringIO('\n'.join(
        l for l in pack.text('raw_banks_ncu.csv').splitlines() if l.startswith('"')))))
    hdr = {h: i for i, h in enumerate(rows[0])}
    meas = {}
    for r in rows[1:]:
        k = int(r[hdr['ID']])
        meas.setdefault(k, {'kernel': r[hdr['Kernel Name']].split('(')[0]})[r[hdr['Metric Name']]] = \
            _num(r[hdr['Metric Value']])
    recs = []
    for i, p in enumerate(pats):
        m = meas[i]
        if m['kernel'] != p['kernel']:
            raise SystemExit('launch %d is %s, expected %s' % (i, m['kernel'], p['kernel']))
        side = 'st' if p['op'] in ('st', 'stmatrix') else 'ld'
        wf = m[BANK_METRICS['wf_' + side]]
        cf = m[BANK_METRICS['cf_' + side]]
        ncu = {k: m.get(v) for k, v in BANK_METRICS.items() if m.get(v) is not None}
        recs.append({'name': p['name'], 'op': p['op'], 'width': p['width'], 'trans': p['trans'],
                     'mask': '0x%08x' % p['mask'], 'addr': p['addr'], 'reps': p['reps'],
                     'source': p['source'], 'kernel': p['kernel'],
                     'measured': {'wavefronts': wf / p['reps'], 'conflicts': cf / p['reps']},
                     'ncu': ncu})
    obj = header(dev, 'smem_bank_conflicts', 'gen_banks.py', BANK_FORMAT)
    obj['records'] = recs
    return obj


LDSM_FORMAT = (
    'ldmatrix records: shared memory (8 KB from a 1024-aligned base) was filled with plain '
    '16-bit stores, the element at byte offset o holding o/2; thread t passed row_addr[t] (byte '
    'offset); regs[t][j] is register j of thread t as returned (bits 15..0 = first element). '
    'stmatrix records: register j of thread t held (1+8t+2j) | (2+8t+2j) << 16, the 8 KB '
    'region was zeroed first and read back with plain loads; smem_nonzero lists [byte offset, '
    '16-bit value] of every non-zero element. num = .x1/.x2/.x4, trans = .trans, .m8n8 .b16.')

MMA_FORMAT = (
    'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, one warp per record: a[t] = the four '
    '32-bit A registers of thread t (two f16 each, element 2i in bits 15..0 of register i), '
    'b[t] = two B registers, c[t] = four f32 C registers (bit patterns), d[t] = the four f32 D '
    'registers returned (bit patterns). Inputs were built from 16x16 A, 16x8 B, 16x8 C '
    'matrices through the PTX fragment maps: *_probe records hold fp16 labels (bits 0x0400 + '
    'index) against a 0/1 selection, random_* small integers (every sum exact in f32).')


def collect_frag(pack, dev):
    man = json.loads(pack.text('manifest_frag.json'))
    ldst = {c['id']: c for c in man['ldst']}
    lrecs, mrecs = [], []
    for d in pack.jsonl('raw_frag.jsonl'):
        if d['kind'] in ('ldmatrix', 'stmatrix'):
            c = ldst[d['id']]
            r = {'op': c['op'], 'num': c['num'], 'trans': c['trans'], 'row_addr': c['row_addr']}
            if d['kind'] == 'ldmatrix':
                r['regs'] = d['regs']
            else:
                r['smem_nonzero'] = d['smem_nonzero']
            lrecs.append(r)
        elif d['kind'] == 'mma':
            e = man['mma'][d['exp']]
            mrecs.append({'name': e['name'], 'a': e['a'], 'b': e['b'], 'c': e['c'], 'd': d['d']})
        else:
            raise SystemExit('unexpected frag record %r' % d)
    o1 = header(dev, 'ldmatrix_stmatrix', 'gen_frag.py', LDSM_FORMAT)
    o1['smem_bytes'] = 8192
    o1['records'] = lrecs
    o2 = header(dev, 'mma_sync_m16n8k16', 'gen_frag.py', MMA_FORMAT)
    o2['records'] = mrecs
    return o1, o2


WGMMA_FORMAT = (
    'One warpgroup (128 threads) per record runs wgmma.mma_async.sync.aligned.m64n{n}k16.f32.'
    'f16.f16 with scale-d = 0, imm-scale-a = imm-scale-b = 1, imm-trans-a = trans_a, '
    'imm-trans-b = trans_b (1 = MN-major), on a 49152-byte shared-memory image copied in with '
    'plain 16-byte stores at a 1024-byte aligned base. desc_a / desc_b: the 64-bit descriptors '
    'with the start-address field relative to that base (the kernel added base >> 4). image: '
    'every 16-bit element at byte offset o in [label_region[0], label_region[1]) holds fp16 '
    'bits 0x0400 + o/2; nonzero lists [byte offset, 16-bit value] of the other non-zero '
    'elements; everything else is 0. d_hex: the accumulators, 128 threads x n/2 registers, '
    'thread-major, each f32 bit pattern as 8 hex digits. probe a: B = I16 (n = 16), so D[m][k] '
    'is the A element the hardware used at (m, k); probe b: A[m][k] = [k == m % 16], so '
    'D[m][n] is B element (m % 16, n); probe id: A[m][0] = m+1, A[m][1] = 1, B[0][n] = 256, '
    'B[1][n] = n, so D[m][n] = 256 (m+1) + n; probe rs: A comes from registers (wgmma ... '
    '{a0, a1, a2, a3}, b-desc, no imm-trans-a), a_regs[t] = the four 32-bit A registers of '
    'thread t (two f16 each, element 2j in bits 15..0 of register j), desc_a unused. a_cfg / b_cfg: the canonical layout the '
    'generator meant (start, lbo, sbo bytes; span 0/32/64/128; major K | MN) — for readers; '
    'replays should decode the descriptors.')


def collect_wgmma(pack, dev):
    man = {e['id']: e for e in json.loads(pack.text('manifest_wgmma.json'))['experiments']}
    recs = []
    for d in pack.jsonl('raw_wgmma.jsonl'):
        if d.get('kind') != 'wgmma':
            raise SystemExit('wgmma run failed: %r' % d)
        e = man[d['id']]
        rec = {'name': e['name'], 'probe': e['probe'], 'n': e['n'], 'trans_a': e['trans_a'],
               'trans_b': e['trans_b'], 'desc_a': e['desc_a'], 'desc_b': e['desc_b'],
               'a_cfg': e['a_cfg'], 'b_cfg': e['b_cfg'],
               'image': {'bytes': 49152, 'label_region': e['label_region'], 'nonzero': e['nonzero']}}
        if e['probe'] == 'rs':
            rec['a_regs'] = e['a_regs']
        rec['d_hex'] = d['d_hex']
        recs.append(rec)
    obj = header(dev, 'wgmma_m64nNk16', 'gen_wgmma.py', WGMMA_FORMAT)
    obj['records'] = recs
    return obj


TCGEN05_FORMAT = (
    'Blackwell tcgen05 readback, one CTA of 128 threads per record, 256 TMEM columns '
    'allocated at base (lane 0, column c_base). fill: 0 = tcgen05.st.32x32b wrote (lane << 16) | '
    'col into every cell of columns 0..127; 1 = the same labels through tcgen05.cp.128x256b '
    '(K-major, no swizzle, LBO 128, SBO 256); 2 = tcgen05.mma kind::f16 M=128 (Layout D) N=64 '
    'at (lane 0, col 0); 3 = M=64 (Layout F) at lane 0; 4 = M=64 at lane 16 (D[m][n] = 256 (m+1) '
    '+ n as f32, unwritten cells 0xdeadbeef). ld records: warp w issued tcgen05.ld.<shape>.x<num>'
    '[.pack::16b] at (lane 32w + lane_off, column col_off) relative to base; regs_hex = 128 '
    'threads x registers, thread-major, 8 hex digits each. st records: the cells started as '
    '0xdeadbeef; warp w stored registers 0x80000000 | w << 24 | t << 16 | r with the shape at '
    '(32w + lane_off, col_off); tmem_hex = 128 lanes x 64 columns read back with ld.32x32b, '
    'lane-major. alloc record: addresses returned by allocations of 256, 128, 64, 32, 32 columns.')


def collect_tcgen05(pack, dev):
    man = json.loads(pack.text('manifest_tcgen05.json'))
    exps = {e['id']: e for e in man['experiments']}
    regs = {'32x32b': 1, '16x64b': 1, '16x128b': 2, '16x256b': 4, '16x32bx2': 1}
    recs = []
    for d in pack.jsonl('raw_tcgen05.jsonl'):
        if d.get('kind') != 'tcgen05':
            raise SystemExit('tcgen05 run failed: %r' % d)
        e = exps[d['id']]
        h = d['out_hex']
        word = lambda i: h[8 * i:8 * i + 8]
        r = {k: e[k] for k in ('id', 'kind', 'shape', 'num', 'pack', 'imm', 'fill', 'lane_off', 'col_off')}
        r['status'] = d['status']
        if e['kind'] == 'ld':
            n = regs[e['shape']] * e['num']
            r['regs_hex'] = ''.join(word(t * 128 + i) for t in range(128) for i in range(n))
        elif e['kind'] == 'st':
            r['tmem_hex'] = ''.join(word(l * 128 + c) for l in range(128) for c in range(64))
        else:
            r['addresses'] = [int(word(i), 16) for i in range(5)]
        recs.append(r)
    obj = header(dev, 'tcgen05', 'gen_tcgen05.py', TCGEN05_FORMAT, target='sm100')
    obj['records'] = recs
    return obj


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--raw', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--prefix', default='h200')
    a = ap.parse_args()
    pack = Pack(a.raw)
    dev = device_block(pack)
    os.makedirs(a.out, exist_ok=True)
    p = lambda n: os.path.join(a.out, '%s_%s.json' % (a.prefix, n))
    try:
        pack.text('manifest_tcgen05.json')
        dump(p('tcgen05'), collect_tcgen05(pack, dev))
        print('%-40s %8d bytes' % (p('tcgen05'), os.path.getsize(p('tcgen05'))))
        return
    except FileNotFoundError:
        pass
    dump(p('tma'), collect_tma(pack, dev))
    dump(p('banks'), collect_banks(pack, dev))
    ld, mma = collect_frag(pack, dev)
    dump(p('ldmatrix'), ld)
    dump(p('mma_sync'), mma)
    dump(p('wgmma'), collect_wgmma(pack, dev))
    for n in ('tma', 'banks', 'ldmatrix', 'mma_sync', 'wgmma'):
        print('%-40s %8d bytes' % (p(n), os.path.getsize(p(n))))


if __name__ == '__main__':
    main()
