// tirx_verify/kernel/op_access.hpp — the regions an op reads and writes, element by element.
//
// Op::reads / Op::writes name buffers (the graph's edges); a check that follows data needs the
// regions and who moves each element:
//
//   op kind                    reads                        writes                  writer threads
//   tma.load                   global                       smem                    -
//   tma.store                  smem                         global                  -
//   tcgen05.mma, gemm_async    a, b, sfa, sfb (+ d if acc.) d (read-modify-write)   -
//   tcgen05.ld                 tmem                         regs                    -
//   tcgen05.st                 regs                         tmem                    regs
//   tcgen05.cp                 smem                         tmem                    -
//   ldmatrix / stmatrix        smem / regs                  regs / smem             - / regs
//   smem.access load / store   smem / regs                  regs / smem             - / regs
//   mma.sync                   a, b, c                      c (read-modify-write)   -
//   wgmma                      a, b (+ d if acc.)           d (read-modify-write)   -
//   copy, copy_async           src                          dst                     src if it is local
//                                                                                   and dst is not
//   cast                       src                          dst                     -
//
// "writer threads": for a write whose data comes from registers, the register region whose
// element i holds the value written to element i of the written region — the threads that
// hold it are the threads that store it. A read-modify-write (an accumulating MMA) lists d once
// with rmw = true: it reads every element of d, then writes it.
#pragma once

#include <vector>

#include "tirx_verify/kernel/ops.hpp"

namespace tirx::kernel {
struct KernelModel;
}

namespace tirx::kernel {

struct RegionAccess {
  const Region* region = nullptr;
  bool write = false;
  bool rmw = false;                          // write only: the op reads the region first
  const Region* writer_threads = nullptr;    // write only: the register region that supplies it
};

// The accesses of one op, reads first (an op reads its sources before it writes); none for
// tcgen05.alloc/dealloc and format-1 ops. The pointers point into `op`; `m` (the op's model)
// gives the buffers' scopes.
std::vector<RegionAccess> op_accesses(const Op& op, const KernelModel& m);

}  // namespace tirx::kernel
