#!/usr/bin/env python3
"""Pictures in a real browser: tirx-verify draws SVGs and the HTML report, headless Chromium
loads each one, dumps its DOM and takes a screenshot, and this script checks that

  * the page loaded without errors: Chromium exits 0, the DOM it built has no <parsererror>
    (what it inserts for an SVG or XHTML document that is not well-formed), the HTML page's DOM
    holds as many <svg> pictures as the file, and no console error was logged;
  * the PNG is not blank: decoded here (zlib + PNG filters, Python stdlib only), it has enough
    non-white pixels and enough coloured ones (the palette's fills), and, for the finding
    picture, pixels of the finding's red outline (palette.hpp kFindingStroke #c00018).

Exit 77 (ctest SKIP_RETURN_CODE) with a message when chromium is not installed
(apt-get install chromium, or scripts/install-deps.sh --test).
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77


def decode_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(f"{path}: PNG depth {depth} colour type {ctype} not handled")
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, ch, rows


def pixel_stats(path, step=2):
    """Fractions of sampled pixels that are non-white and coloured (max-min channel > 40), and
    the number of sampled finding-red ones (R > 150, G < 70, B < 70)."""
    w, h, ch, rows = decode_png(path)
    n = nonwhite = coloured = red = 0
    for y in range(0, h, step):
        line = rows[y]
        for x in range(0, w, step):
            r, g, b = line[x * ch], line[x * ch + 1], line[x * ch + 2]
            n += 1
            nonwhite += min(r, g, b) < 245
            coloured += max(r, g, b) - min(r, g, b) > 40
            red += r > 150 and g < 70 and b < 70
    return {"pixels": n, "nonwhite": nonwhite / n, "coloured": coloured / n, "red": red, "size": (w, h)}


def svg_size(path):
    head = open(path, encoding="utf-8").read(2000)
    m = re.search(r'<svg[^>]*width="([0-9.]+)" height="([0-9.]+)"', head)
    # The top-left 1400 x 1200 px at most: enough for the title, the first rows (the finding's
    # cell of the witness is in lane 0) and cheap to decode in pure Python.
    return min(1400, int(float(m.group(1))) + 16), min(1200, int(float(m.group(2))) + 16)


def browse(chromium, path, png, size, tmp):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={tmp}/profile", "--enable-logging=stderr", "--v=0",
           f"--window-size={size[0]},{size[1]}", "--dump-dom", f"--screenshot={png}", "file://" + os.path.abspath(path)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--keep", help="copy the PNGs to this directory")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (apt-get install chromium, or scripts/install-deps.sh --test)")
        return SKIP
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        def tv(*a, ok=(0,)):
            r = subprocess.run([args.bin, *a], capture_output=True, text=True, timeout=120)
            if r.returncode not in ok:
                problems.append(f"tirx-verify {' '.join(a)}: exit {r.returncode}: {r.stderr[-500:]}")
        tile = f"{tmp}/tile.svg"
        tv("render", "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", "--shape", "8,16",
           "-o", tile)
        finding = f"{tmp}/finding.svg"
        tv("check", "sf_tmem_layout(128, 8, 8)", "--scope", "tmem", "--dtype", "uint8", "--render", finding, ok=(1,))
        page = f"{tmp}/report.html"
        tv("run", f"{args.root}/models/kernels/paged_mqa_logits_fp4.json", f"{args.root}/tests/kernel/example_gemm.json",
           "--html", page, ok=(0, 1))
        if problems:
            print("\n".join(problems))
            return 1
        cases = [(tile, svg_size(tile), False), (finding, svg_size(finding), True), (page, (1400, 2000), False)]
        for path, size, want_red in cases:
            name = os.path.basename(path)
            png = f"{tmp}/{name}.png"
            rc, dom, err = browse(chromium, path, png, size, tmp)
            if rc != 0:
                problems.append(f"{name}: chromium exit {rc}: {err[-800:]}")
                continue
            if "<parsererror" in dom or "This page contains the following errors" in dom:
                problems.append(f"{name}: the browser reports a parse error: {dom[:800]}")
            console = [l for l in err.splitlines() if "CONSOLE" in l and ("ERROR" in l or "Uncaught" in l)]
            if console:
                problems.append(f"{name}: console errors: {console[:5]}")
            if name.endswith(".html"):
                want = open(path, encoding="utf-8").read().count("<svg")
                got = dom.count("<svg")
                if want == 0 or got != want:
                    problems.append(f"{name}: the file has {want} pictures, the browser's DOM {got}")
                if "tirx-verify" not in dom or "sfkv_tmem" not in dom:
                    problems.append(f"{name}: the DOM lacks the report's title or the sfkv_tmem finding")
            elif "<svg" not in dom:
                problems.append(f"{name}: the DOM has no <svg>: {dom[:300]}")
            if not os.path.exists(png):
                problems.append(f"{name}: no screenshot")
                continue
            st = pixel_stats(png)
            line = (f"{name}: {st['size'][0]}x{st['size'][1]} px, non-white {st['nonwhite']:.1%}, "
                    f"coloured {st['coloured']:.1%}, finding-red samples {st['red']}")
            print(line)
            if st["nonwhite"] < 0.05:
                problems.append(f"{name}: the screenshot is (nearly) blank: {line}")
            if st["coloured"] < 0.01:
                problems.append(f"{name}: no palette colours in the screenshot: {line}")
            if want_red and st["red"] < 20:
                problems.append(f"{name}: the finding's red outline is not in the screenshot: {line}")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(png, args.keep)
    if problems:
        print("FAIL\n" + "\n".join(problems))
        return 1
    print("ok: 2 SVGs and the HTML report loaded in headless Chromium without errors, none blank")
    return 0


if __name__ == "__main__":
    sys.exit(main())
