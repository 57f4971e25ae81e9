// The regions each op kind reads and writes (op_access.hpp).
#include "tirx_verify/kernel/op_access.hpp"

#include <type_traits>

#include "tirx_verify/kernel/model.hpp"

namespace tirx::kernel {

std::vector<RegionAccess> op_accesses(const Op& op, const KernelModel& m) {
  std::vector<RegionAccess> out;
  auto read = [&](const Region& r) { out.push_back({&r, false, false, nullptr}); };
  auto write = [&](const Region& r, const Region* from_regs = nullptr) { out.push_back({&r, true, false, from_regs}); };
  auto rmw = [&](const Region& r, bool accumulate) { out.push_back({&r, true, accumulate, nullptr}); };
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, TmaOp>) {
          if (d.store) {
            read(d.smem);
            write(d.global);
          } else {
            if (d.is_gather4())
              for (const Region& r : d.global_rows) read(r);
            else if (!d.global.buffer.empty())  // empty: a box wholly outside the tensor (a fill)
              read(d.global);
            write(d.smem);
          }
        } else if constexpr (std::is_same_v<T, MmaOp>) {
          if (d.a) read(*d.a);
          if (d.b) read(*d.b);
          if (d.sfa_region) read(*d.sfa_region);
          if (d.sfb_region) read(*d.sfb_region);
          rmw(d.d_region, d.accumulate);
        } else if constexpr (std::is_same_v<T, GemmAsyncOp>) {
          read(d.a);
          read(d.b);
          if (d.sfa) read(*d.sfa);
          if (d.sfb) read(*d.sfb);
          rmw(d.d, d.accumulate);
        } else if constexpr (std::is_same_v<T, LdStOp>) {
          if (d.store) {
            read(d.regs);
            write(d.tmem, &d.regs);
          } else {
            read(d.tmem);
            write(d.regs);
          }
        } else if constexpr (std::is_same_v<T, CpOp>) {
          read(d.smem);
          write(d.tmem);
        } else if constexpr (std::is_same_v<T, WgmmaOp>) {
          read(d.a);
          read(d.b);
          if (d.d) rmw(*d.d, d.accumulate);
        } else if constexpr (std::is_same_v<T, LdmatrixOp> || std::is_same_v<T, SmemAccessOp>) {
          if (d.store) {
            read(d.regs);
            write(d.smem, &d.regs);
          } else {
            read(d.smem);
            write(d.regs);
          }
        } else if constexpr (std::is_same_v<T, MmaSyncOp>) {
          read(d.a);
          read(d.b);
          rmw(d.c, true);
        } else if constexpr (std::is_same_v<T, CastOp>) {
          read(d.src);
          write(d.dst);
        } else if constexpr (std::is_same_v<T, CopyOp>) {
          const BufferModel* src = m.find_buffer(d.src.buffer);
          const BufferModel* dst = m.find_buffer(d.dst.buffer);
          if (d.past_tensor) {  // a TMA box past its tensor touches only its part inside
            const bool store = dst && dst->scope == "global";
            const Region* g = d.global_touched(store);
            if (store) {
              read(d.src);
              if (g) d.reduce.empty() ? write(*g) : rmw(*g, true);
            } else {
              if (g) read(*g);
              write(d.dst);
            }
            return;
          }
          read(d.src);
          const bool from_regs = src && dst && src->scope == "local" && dst->scope != "local";
          if (!d.reduce.empty()) rmw(d.dst, true);  // a TMA reduction reads the global it writes
          else write(d.dst, from_regs ? &d.src : nullptr);
        }
      },
      op.data);
  return out;
}

}  // namespace tirx::kernel
