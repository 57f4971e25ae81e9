// The op-kind parsers (internal to src/kernel): one per file in src/kernel/ops/, registered in
// registry.cpp. Each reads its kind's fields (docs/model-format.md "Ops") from the op's object
// into Op::data and names the buffers the op reads and writes.
#pragma once

#include <string>
#include <vector>

#include "../model_reader.hpp"

namespace tirx::kernel::detail {

inline const std::vector<std::string> kSharedScopes = {"shared", "shared.dyn"};
inline const std::vector<std::string> kTmemScope = {"tmem"};
inline const std::vector<std::string> kLocalScope = {"local"};
inline const std::vector<std::string> kGlobalScope = {"global"};

void parse_copy(ObjectReader& o, Op& op, OpEnv& env);          // copy, copy_async
void parse_gemm_async(ObjectReader& o, Op& op, OpEnv& env);    // gemm_async
void parse_tma(ObjectReader& o, Op& op, OpEnv& env);           // tma.load, tma.store
void parse_tcgen05_mma(ObjectReader& o, Op& op, OpEnv& env);   // tcgen05.mma
void parse_tcgen05_ldst(ObjectReader& o, Op& op, OpEnv& env);  // tcgen05.ld, tcgen05.st
void parse_tcgen05_cp(ObjectReader& o, Op& op, OpEnv& env);    // tcgen05.cp
void parse_tcgen05_alloc(ObjectReader& o, Op& op, OpEnv& env); // tcgen05.alloc, tcgen05.dealloc
void parse_wgmma(ObjectReader& o, Op& op, OpEnv& env);         // wgmma
void parse_ldmatrix(ObjectReader& o, Op& op, OpEnv& env);      // ldmatrix, stmatrix
void parse_mma_sync(ObjectReader& o, Op& op, OpEnv& env);      // mma.sync
void parse_smem_access(ObjectReader& o, Op& op, OpEnv& env);   // smem.access
void parse_cast(ObjectReader& o, Op& op, OpEnv& env);          // cast

// "MK" / "KM" style operand dims; returns true when transposed (the second spelling).
bool read_operand_dims(ObjectReader& o, const char* key, const char* normal, const char* transposed);
// Every region of a list must have `rank` kept dimensions; throws model.schema at `key`.
void require_kept_rank(ObjectReader& o, const char* key, const Region& r, std::size_t rank);

}  // namespace tirx::kernel::detail
