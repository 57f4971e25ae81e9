// tirx_verify/kernel/ops.hpp — the ops of a kernel model (format 2), one value type per kind.
//
// An op is what a kernel does to its buffers, at the level the kernel is written
// (docs/model-format.md "Ops"):
//
//   tile level          copy / copy_async (dispatch tma, tcgen05, tcgen05.cp, ldstmatrix,
//                       thread), gemm_async
//   instruction level   tma.load / tma.store, tcgen05.mma, tcgen05.ld / tcgen05.st, tcgen05.cp,
//                       tcgen05.alloc / tcgen05.dealloc, wgmma, ldmatrix / stmatrix, mma.sync,
//                       smem.access; cast (register -> register conversion)
//
// Each kind has one parser (src/kernel/ops/<kind>.cpp) that reads its fields strictly and names
// the buffers it reads and writes; the kernel checks (src/kernel/checks/) take the op's typed
// data with std::get_if. Units: regions, shapes, boxes and coordinates in elements; fields named
// *_bytes in bytes, *_cols in 32-bit TMEM columns, lanes in TMEM lanes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tirx_verify/hw/swizzle.hpp"
#include "tirx_verify/hw/tcgen05_cp.hpp"
#include "tirx_verify/hw/tcgen05_ldst.hpp"
#include "tirx_verify/kernel/json_locator.hpp"
#include "tirx_verify/kernel/region.hpp"

namespace tirx::kernel {

// A shared-memory matrix descriptor as a kernel builds it (PTX ISA 9.1 §9.7.16.4.1 for
// tcgen05, §9.7.15.5.1.2.2 for wgmma; hw/smem_descriptor.hpp): start address = `start`
// (+ offset_bytes, the kernel's add_16B_offset x 16), leading/stride byte offsets, swizzle
// mode, base offset and the operand's major-ness.
struct DescriptorModel {
  AddressRef start;
  std::int64_t lbo_bytes = 0;
  std::int64_t sbo_bytes = 0;
  hw::TmaSwizzle swizzle = hw::TmaSwizzle::kNone;
  int base_offset = 0;      // 0..7
  bool mn_major = false;    // "major": "MN"; K-major otherwise
  std::string path;         // JSON path, for messages
};

// The arguments of cuTensorMapEncodeTiled (cuda.h, CUDA 13.0; hw/tma.hpp).
struct TensorMapModel {
  std::string dtype;
  int elem_bytes = 0;
  std::vector<std::int64_t> dims;           // elements, innermost first
  std::vector<std::int64_t> strides_bytes;  // byte stride of dims[1..]
  std::vector<std::int64_t> box;            // elements, innermost first
  std::vector<std::int64_t> elem_strides;   // default all 1
  hw::TmaSwizzle swizzle = hw::TmaSwizzle::kNone;
  std::string interleave = "none";
  std::string oob_fill = "none";
  // globalAddress as a byte offset into the `global` buffer's storage (its m = 0), default 0;
  // a multiple of 16 (32 under interleave 32B), as cuTensorMapEncodeTiled requires.
  std::int64_t base_offset_bytes = 0;
};

// tma.load / tma.store: cp.async.bulk.tensor (PTX ISA 9.1 §9.7.9.25).
struct TmaOp {
  bool store = false;
  TensorMapModel tensor_map;
  std::vector<std::int64_t> coords;      // elements, innermost first
  Region global;                         // a region of a global buffer; none (empty `buffer`) for a
                                         // tma.load whose box lies wholly outside the tensor: it
                                         // reads nothing and fills `smem` (docs/model-format.md)
  Region smem;                           // the shared region it corresponds to, element by element
  std::optional<AddressRef> smem_address;  // the address the instruction passes (default: smem's first element)
  std::vector<std::int64_t> multicast;   // CTA ranks, informational
  // .tile::gather4 (PTX ISA 9.1 §5.5.3.4, §9.7.9.25): the four row coordinates (dim 1), in the
  // order the rows land in shared memory; empty for the tile form. Then the map is 2-D with
  // box[1] == 1, `coords` holds the column coordinate alone, and `global_rows` the four global
  // regions the rows mean (their concatenation corresponds to `smem` element by element);
  // `global` is the first of them.
  std::vector<std::int64_t> gather4;
  std::vector<Region> global_rows;
  bool is_gather4() const { return !gather4.empty(); }
  // The box as the shared side sees it: the map's box, or {box[0], 4} for gather4 (four
  // consecutive box rows); and the coordinates of its first element.
  std::vector<std::int64_t> smem_box() const {
    return is_gather4() ? std::vector<std::int64_t>{tensor_map.box.at(0), 4} : tensor_map.box;
  }
  std::vector<std::int64_t> box_origin() const {
    return is_gather4() ? std::vector<std::int64_t>{coords.at(0), gather4.at(0)} : coords;
  }
};

// The tcgen05 instruction descriptor's fields (PTX ISA 9.1 §9.7.16.4.2).
struct InstrDescriptorModel {
  std::string d_dtype, a_dtype, b_dtype;
  bool a_mn_major = false, b_mn_major = false;
  std::int64_t m = 0, n = 0;
  bool sparse = false;
};

// tcgen05.mma (PTX ISA 9.1 §9.7.16.10).
struct MmaOp {
  std::string mma_kind;            // f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4
  std::int64_t m = 0, n = 0, k = 0;
  AddressRef d;                    // TMEM address of the accumulator
  Region d_region;                 // the accumulator region, logical (M, N)
  std::optional<DescriptorModel> a_desc;
  std::optional<AddressRef> a_tmem;  // A in TMEM instead of a descriptor
  DescriptorModel b_desc;
  std::optional<Region> a, b;      // operand regions, logical (M, K) / (N, K)
  bool a_km = false, b_kn = false; // written transposed ("a_dims": "KM", "b_dims": "KN")
  std::optional<InstrDescriptorModel> idesc;
  std::optional<AddressRef> sfa, sfb;
  std::optional<Region> sfa_region, sfb_region;
  std::string scale_vec;           // "", "1X", "2X", "4X"
  int sfa_id = 0, sfb_id = 0;      // the instruction descriptor's a_sf_id / b_sf_id: byte of the 32-bit SF cell
  bool ws = false;
  bool accumulate = true;          // enable_input_d: D is read and written (false: overwritten)
};

// tcgen05.ld / tcgen05.st (PTX ISA 9.1 §9.7.16.8.3/4).
struct LdStOp {
  bool store = false;
  hw::LdStInstr instr;
  std::optional<AddressRef> taddr;       // every warp passes this
  std::vector<AddressRef> taddr_per_warp;  // or one per entry of Op::warps
  Region tmem;                           // the TMEM region it is meant to move
  Region regs;                           // the local (register fragment) region, element by element
};

// tcgen05.cp (PTX ISA 9.1 §9.7.16.9.2).
struct CpOp {
  hw::CpShape shape = hw::CpShape::k128x256b;
  DescriptorModel src_desc;
  AddressRef taddr;
  Region smem;
  Region tmem;
};

// tcgen05.alloc / tcgen05.dealloc (PTX ISA 9.1 §9.7.16.7.1).
struct AllocOp {
  bool dealloc = false;
  std::int64_t cols = 0;  // 32-bit columns
};

// copy / copy_async at tile level (TIRx Tx.copy, Tx.copy_async).
struct CopyOp {
  bool async = true;
  Region dst, src;         // as written; with past_tensor the global one is the TMA box
  std::string dispatch;    // tma, tcgen05, tcgen05.cp, ldstmatrix, thread
  int access_bytes = 0;    // thread: bytes per thread per instruction (32 only against global)
  // tcgen05: the row immediate (TMEM lanes, warp-relative) the compiler emitted for the first
  // 16-row slab, when known from its output; the check uses it instead of the derived row.
  std::optional<std::int64_t> row_imm;
  // tma: the global region (the box) runs past its tensor; `inside` is its part inside the
  // tensor (nullopt: wholly past, the TMA reads or writes no global memory). Box elements past
  // the tensor are filled (load: zeros) or not written (store): PTX ISA 9.1 §5.5 Tensors,
  // out-of-bound access of the bounding box.
  bool past_tensor = false;
  std::optional<Region> inside;
  // tma, shared -> global: cp.reduce.async.bulk.tensor's .redOp ("add", "min", "max", "inc",
  // "dec", "and", "or", "xor"; PTX ISA 8.0+, cp.reduce.async.bulk.tensor, sm_90); empty: a
  // plain store.
  std::string reduce;
  // tcgen05.cp: the instruction shape and multicast TIRx's shape=/multicast= name (spelled as
  // the instruction's, e.g. 64x128b.warpx2::02_13); nullopt: not given.
  std::optional<hw::CpShape> cp_shape;

  // The global side's region that memory is actually touched through (dispatch tma): `inside`
  // under past_tensor, else the global operand itself. nullptr: none.
  const Region* global_touched(bool global_is_dst) const {
    if (past_tensor) return inside ? &*inside : nullptr;
    return global_is_dst ? &dst : &src;
  }
};

// gemm_async at tile level (TIRx Tx.gemm_async): D[m, n] += sum_k A[m, k] B[n, k].
struct GemmAsyncOp {
  Region d, a, b;
  bool a_km = false, b_kn = false;
  std::optional<Region> sfa, sfb;
  std::string scale_vec;
  bool ws = false;
  bool accumulate = true;  // false: the op overwrites D (TIRx accum=False)
};

// wgmma.mma_async (Hopper, PTX ISA 9.1 §9.7.15.5).
struct WgmmaOp {
  std::int64_t m = 64, n = 0, k = 0;
  DescriptorModel a_desc, b_desc;
  Region a, b;
  bool a_km = false, b_kn = false;
  std::optional<Region> d;  // the accumulator register fragment (local), logical (M, N)
  bool accumulate = true;   // scale-d: D is read and written (false: overwritten)
};

// ldmatrix / stmatrix (PTX ISA 9.1 §9.7.9.20/21).
struct LdmatrixOp {
  bool store = false;
  int num = 1;
  bool trans = false;
  Region smem, regs;
};

// mma.sync (PTX ISA 9.1 §9.7.14.5).
struct MmaSyncOp {
  std::string shape;  // "m16n8k16"
  Region a, b, c;
};

// A plain per-thread shared-memory access (ld.shared / st.shared).
struct SmemAccessOp {
  bool store = false;
  Region smem, regs;
  int access_bytes = 0;
};

// cast: an element-wise conversion between two register fragments of the same threads (TIRx
// Tx.cast, cvt.* PTX): element i of src becomes element i of dst.
struct CastOp {
  Region dst, src;
};

// A format-1 op: only names and the buffers it touches.
struct StructuralOp {};

using OpData = std::variant<StructuralOp, TmaOp, MmaOp, LdStOp, CpOp, AllocOp, CopyOp, GemmAsyncOp, WgmmaOp,
                            LdmatrixOp, MmaSyncOp, SmemAccessOp, CastOp>;

struct Op {
  std::string name;
  std::string kind;                 // the kind as written ("tma.load", ...; free text in format 1)
  std::vector<int> warps;           // CTA-wide warp indices
  int cta_group = 1;
  std::string origin, notes;
  std::string path;                 // JSON path ("$.ops[3]")
  JsonPosition position;            // where the op's object starts in the file
  std::vector<std::string> reads;   // buffer names
  std::vector<std::string> writes;  // buffer names
  OpData data;
};

// Every op kind of format 2, in documentation order.
const std::vector<std::string>& op_kinds();

}  // namespace tirx::kernel
