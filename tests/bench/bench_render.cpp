// Pictures: building a view (enumerate every point, place it) and writing it as SVG, for the two
// sizes the render goal names (docs/render.md: < 1 s each): a 128 x 512 TMEM accumulator
// (65,536 cells drawn as 128 x 128 blocks) and a 2^16-element logical layout, plus the bank
// picture of a 128B-swizzled tile and the HTML-sized (48 x 48) picture of the 2^16 layout.
#include <benchmark/benchmark.h>

#include "tirx_verify/hw/target.hpp"
#include "tirx_verify/layout/notation.hpp"
#include "tirx_verify/render/svg.hpp"
#include "tirx_verify/render/views.hpp"

namespace {

using namespace tirx;

prove::CheckInput input(const std::string& text, std::vector<std::int64_t> shape, prove::Scope scope, int bits) {
  static const hw::Target t = hw::load_target("sm_100a");
  prove::CheckInput in;
  in.text = text;
  in.layout = parse_layout(text, {});
  in.shape = shape;
  in.scope = scope;
  in.elem_bits = bits;
  in.machine = prove::machine_limits(t);
  in.target = &t;
  return in;
}

void run(benchmark::State& state, const prove::CheckInput& in, render::View v, std::int64_t cells) {
  render::RenderOptions o;
  o.view = v;
  o.max_rows = o.max_cols = cells;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const render::Grid g = render::build_view(in, o);
    const std::string svg = render::svg_document(g);
    bytes = svg.size();
    benchmark::DoNotOptimize(svg.data());
  }
  state.counters["svg_bytes"] = static_cast<double>(bytes);
}

void BM_Tmem128x512(benchmark::State& state) {
  run(state, input("S[(128,512):(1@TLane,1@TCol)]", {128, 512}, prove::Scope::kTmem, 32), render::View::kTmem, 128);
}
BENCHMARK(BM_Tmem128x512)->Unit(benchmark::kMillisecond);

void BM_Logical65536(benchmark::State& state) {
  run(state, input("S[(256,256):(256,1)]", {256, 256}, prove::Scope::kUnknown, 0), render::View::kLogical, 128);
}
BENCHMARK(BM_Logical65536)->Unit(benchmark::kMillisecond);

void BM_Logical65536ThreadsReplicated(benchmark::State& state) {
  // 2^16 elements x 2 replica copies on thread axes, coloured by thread.
  run(state, input("S[(64,8,128):(1@laneid,1@warpid,1)] + R[2:8@warpid]", {512, 128}, prove::Scope::kUnknown, 0),
      render::View::kLogical, 128);
}
BENCHMARK(BM_Logical65536ThreadsReplicated)->Unit(benchmark::kMillisecond);

void BM_Smem65536Swizzled(benchmark::State& state) {
  run(state, input("T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(1024,64):(64,1)]))", {1024, 64}, prove::Scope::kShared, 16),
      render::View::kSmem, 128);
}
BENCHMARK(BM_Smem65536Swizzled)->Unit(benchmark::kMillisecond);

void BM_Logical65536Html(benchmark::State& state) {
  run(state, input("S[(256,256):(256,1)]", {256, 256}, prove::Scope::kUnknown, 0), render::View::kLogical, 48);
}
BENCHMARK(BM_Logical65536Html)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
