#!/usr/bin/env bash
# Regenerates docs/images/*.png, the pictures of the seed examples in docs/render.md: tirx-verify
# draws each as SVG, headless Chromium screenshots it at the SVG's own size.
# Needs build/tirx-verify (scripts/build.sh --cli-only) and chromium (scripts/install-deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=build/tirx-verify
out=docs/images
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
$tv render 'S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid' --shape 8,16 \
    -o "$tmp/tile_8x16_replica.svg"
$tv render 'S[(2,128,112):(112@TCol,1@TLane,1@TCol)]' --scope tmem --shape 2,128,112 --dtype float32 \
    --alloc-cols 256 -o "$tmp/tmem_2x128x112.svg"
$tv render 'tmem_datapath_layout("F", 64, 32, sub_slab=1)' --scope tmem --shape 64,32 --dtype float32 \
    --alloc-cols 32 -o "$tmp/layout_f_sub_slab1.svg"
$tv render 'T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(8,64):(64,1)]))' --scope shared --shape 8,64 \
    --dtype float16 --mark '*,0' -o "$tmp/swizzle_128b_bank_column.svg"
$tv check 'sf_tmem_layout(128, 8, 8)' --scope tmem --dtype uint8 --render "$tmp/sf_tmem_128_8_8_injective.svg" \
    >/dev/null || [ $? -eq 1 ]
$tv check 'S[(32,64):(64,1)]' --scope shared --dtype float16 --access 'S[(32,64):(1@laneid,1)]' --access-bytes 16 \
    --render "$tmp/bank_conflict_16B_rows.svg" >/dev/null || [ $? -eq 1 ]
# The HTML report of one corpus kernel with a known finding (its top 1,500 px).
$tv run models/kernels/paged_mqa_logits_fp4.json --baseline models/baseline.json --html "$tmp/report.html" >/dev/null
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
    --window-size=1400,1500 --screenshot="$out/report_paged_mqa_logits_fp4.png" "file://$tmp/report.html" >/dev/null 2>&1
echo "render_doc_images: $out/report_paged_mqa_logits_fp4.png (1400,1500 px)"
# The injectivity picture is 3,900 px tall (128 lanes, 3 labels a cell): its image keeps the top
# 1,300 px (the message, the witness cell in lane 0, the first replica copies in lane 32).
for svg in "$tmp"/*.svg; do
  maxh=2400
  case "$svg" in *sf_tmem*) maxh=1300 ;; esac
  size=$(python3 -c "import re,sys; s=open(sys.argv[1]).read(2000); m=re.search(r'width=\"([0-9.]+)\" height=\"([0-9.]+)\"', s); print(f'{int(float(m[1]))+8},{min(int(sys.argv[2]), int(float(m[2]))+8)}')" "$svg" "$maxh")
  png="$out/$(basename "$svg" .svg).png"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
      --window-size="$size" --screenshot="$png" "file://$svg" >/dev/null 2>&1
  echo "render_doc_images: $png ($size px)"
done
