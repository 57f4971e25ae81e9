// tirx_verify/layout/trainium.hpp — Trainium SBUF/PSUM layouts (TVM TileLayout.trainium, to_psum).
//
// TVM writes these in Python (python/tvm/tirx/layout.py TileLayout.trainium / to_psum, also
// python/tvm/backend/trn/layout.py); they are re-implemented here from that code's behaviour.
// Memory axes: P (partition, 128 of them), F (free dimension, elements), Bank (PSUM bank).
//
//   trainium("PF", {128, 128})           = S[(128,128):(1@P,1@F)]
//   trainium("FP", {4, 256})             = S[(4,2,128):(1@F,4@F,1@P)]   (P > 128 is split: the
//                                          high part goes to F with the largest F stride, and
//                                          sits just before the 128 P iter)
//   to_psum(S[(1024,8):(1@F,1@P)])       = S[(2,512,8):(1@Bank,1@F,1@P)]
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "tirx_verify/layout/tile_layout.hpp"

namespace tirx {

// Partitions per Trainium SBUF/PSUM and elements per PSUM bank (TVM kPSUMMaxElemPerBank = 512,
// python/tvm/tirx/layout.py).
inline constexpr std::int64_t kTrainiumPartitions = 128;
inline constexpr std::int64_t kPsumElemsPerBank = 512;

// One shard iter per annotation letter ('P' or 'F'), row-major strides within the P iters and
// within the F iters (elements on F, partitions on P); with is_psum, to_psum() of the result.
// Throws InputError("layout.well-formed") when the annotation is not [PF]*, its length differs
// from shape's, an extent is < 1, a single P exceeds 128 without being a multiple of 128, or
// several P dims multiply to more than 128 (TVM asserts the same).
TileLayout trainium(std::string_view annotation, std::span<const std::int64_t> shape, bool is_psum = false);

// The PSUM bank form of an SBUF layout: each F iter with stride a multiple of 512 moves to Bank
// (stride / 512); an F iter whose stride divides 512 is kept when it stays inside one bank
// (extent < 512 / stride), else split into (extent / c, 1@Bank), (c, stride@F) with
// c = 512 / stride. Other iters are kept; replica and offset are dropped (as TVM's from_iters
// call does). Throws InputError("layout.well-formed") when an F iter fits none of these cases.
TileLayout to_psum(const TileLayout& l);

}  // namespace tirx
