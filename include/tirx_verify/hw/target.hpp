// tirx_verify/hw/target.hpp — the sizes and counts of one GPU target, read from JSON.
//
// Every hardware size the simulator uses comes from here, never from a literal in the code
// (STYLE.md #7). A target file (models/targets/<name>.json) holds data only:
//
//   group  field                        sm_90a   sm_100a   used by
//   warp   size                         32       32        every warp-wide instruction
//          warps_per_warpgroup          4        4         TMEM sub-partitions, wgmma
//          max_threads_per_cta          1024     1024      layout.bounds (tx)
//          max_registers_per_thread     255      255       layout.bounds (register fragments)
//   smem   bytes_per_cta                232448   232448    SharedMemory bounds
//          banks x bank_bytes           32 x 4   32 x 4    bank(), wavefronts
//          wavefront.phase_threads      {4:32, 8:16, 16:8} threads served per phase, by
//                                                          access width (banks.hpp)
//          wavefront.uniform_pair_xor   [1, 2]   [1, 2]    pair masks of the load shortcut
//          wavefront.uniform_pair_widths [8, 16] [8, 16]   widths the shortcut applies to
//          wavefront.ldmatrix_phase_rows 8       8         ldmatrix row addresses per phase
//   tma    rank_max, box_dim_max, ...   5, 256   5, 256    tma.hpp legality
//          swizzle_modes                4 modes  6 modes   which CUtensorMapSwizzle exist
//   tmem   lanes x columns              -        128 x 512 Tmem, tcgen05.*
//          alloc_{min,max,granularity}_columns   32/512/32 tcgen05.alloc
//
// A target without tensor memory (sm_90a) has `tmem` empty; every tcgen05 operation then
// throws InputError("target.feature").
//
// Files are found (find_target_file) under $TIRX_VERIFY_ROOT/models/targets/ when that
// variable is set, else under <source dir>/models/targets/ (tirx::source_dir(), see layout/source_dir.hpp),
// else under <exe>/../share/tirx_verify/models/targets/ (an installed CLI, wherever its prefix is),
// else under <install prefix>/share/tirx_verify/models/targets/ (install_data_dir()).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tirx::hw {

// Tensor-memory geometry (PTX ISA 9.1 §9.7.16.1, §9.7.16.1.2). Units: lanes, 32-bit columns.
struct TmemGeometry {
  int lanes = 0;                    // rows of the 2-D TMEM array (128)
  int columns = 0;                  // 32-bit columns per lane (512)
  int cell_bits = 0;                // bits per cell (32)
  int alloc_min_columns = 0;        // smallest tcgen05.alloc nCols (32)
  int alloc_max_columns = 0;        // largest tcgen05.alloc nCols (512)
  int alloc_granularity_columns = 0;  // allocation unit (32)
};

// Parameters of the shared-memory wavefront model (banks.hpp explains the model).
struct WavefrontModel {
  // Threads whose requests one phase serves together, keyed by access width in bytes
  // (4, 8, 16): {4:32, 8:16, 16:8}, one phase per 128 requested bytes.
  std::map<int, int> phase_threads;
  // Loads of these widths whose addresses satisfy T(n) == T(n ^ k) for all n, for one k in
  // uniform_pair_xor, take phases twice as large (banks.hpp step 2).
  std::vector<int> uniform_pair_xor;
  std::set<int> uniform_pair_widths;
  int ldmatrix_phase_rows = 0;  // row addresses of ldmatrix/stmatrix served per phase
  std::string calibration;      // where the numbers come from (free text)
};

struct Target {
  std::string name;  // "sm_90a", "sm_100a"
  int warp_size = 0;
  int warps_per_warpgroup = 0;
  int max_threads_per_cta = 0;       // CUDA Programming Guide, compute capabilities table: 1024
  int max_registers_per_thread = 0;  // CUDA Programming Guide, compute capabilities table: 255

  std::int64_t smem_bytes_per_cta = 0;
  int banks = 0;
  int bank_bytes = 0;
  WavefrontModel wavefront;

  int tma_rank_max = 0;
  int tma_box_dim_max = 0;
  int tma_inner_box_bytes_multiple = 0;
  int tma_smem_dst_align_bytes = 0;
  std::vector<std::string> tma_swizzle_modes;  // spellings as in swizzle.hpp's TmaSwizzle

  std::optional<TmemGeometry> tmem;  // empty: no tensor memory on this target

  // Bytes one wavefront moves: every bank delivers one bank word (32 x 4 = 128 B).
  int wavefront_bytes() const { return banks * bank_bytes; }
  int warpgroup_size() const { return warp_size * warps_per_warpgroup; }
  // Lanes of one warp's TMEM sub-partition (128 / 4 = 32). Throws target.feature without TMEM.
  int tmem_subpartition_lanes() const;
  // The TMEM geometry; throws InputError("target.feature") naming `what` if there is none.
  const TmemGeometry& require_tmem(std::string_view what) const;
  bool has_tma_swizzle(std::string_view mode) const;
};

// Parses a target from JSON text. `origin` names the file in messages.
// Throws InputError("target.file") for malformed JSON, a missing field or a value out of range.
Target parse_target(std::string_view json_text, std::string_view origin = "<target>");

// Reads and parses a target file through read_input_file (layout/input_file.hpp): only a regular
// file of at most kMaxTargetFileBytes (1 MiB) whose bytes are UTF-8. Throws InputError("target.file")
// if it cannot be read, is not a regular file (FIFO, device, directory), is too large, is not
// UTF-8 (byte offset) or does not parse (parse_target).
Target load_target_file(const std::string& path);

// The path of models/targets/<name>.json (see the search order above).
// Throws InputError("target.file") if the name is not a plain identifier or no file exists.
std::string find_target_file(std::string_view name);

// load_target_file(find_target_file(name)).
Target load_target(std::string_view name);

}  // namespace tirx::hw
