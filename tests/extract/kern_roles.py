"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
kern DSL forms.  K.specialize() roles (`with compute:` runs on warps 0-3 only), a loop frame
`with K.unroll(STAGES) as s:`, K.PipelineState advanced inside the role, a staged swizzled tile read
through `tile[state.stage].m8n8(row, col)`, ldmatrix .x2 (lanes 16-31 compute addresses past the
tile, which the instruction ignores), and a stage count picked by `a or b` whose second operand
is a runtime value the first one makes irrelevant.  Under --param WIDE=True the role claims warps
past the CTA's eight (unresolved); under --param SKEW=True each lane's row starts at column 4, across
two 16-byte chunks of the swizzled tile, which kernel.fragment rejects."""
import torch

import tirx_kernels.kern as K

N_BLOCKS = 3
WIDE = False
SKEW = False  # --param SKEW=True: rows 0-15 from column 4, each row straddling two 16-byte chunks


def _pick(n, sms):
    return 2 if n <= 4 or n > 2 * sms else 1


def _make(stages: int):
    @K.kernel(warps=8, arch="sm_100a", grid=(1,))
    def roles(out: K.gptr[K.bf16, (16,)]):
        smem = K.smem_pool()
        tile = smem.alloc((stages, 16, 16), K.bf16, swizzle=K.SW32B)
        smem.commit()
        warp = K.warp_id()
        lane = K.lane_id()
        state = K.PipelineState(stages, phase=0)
        spec = K.specialize()
        compute = spec.role("compute", warps=range(12) if WIDE else range(4))
        with compute:
            with K.unroll(stages) as s:
                frag = K.alloc_local((2,), "uint32")
                if SKEW:
                    row, col = lane % 8 + 8 * (lane // 8 % 2), 4
                else:
                    row, col = lane % 8, (lane // 8) * 8
                K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(frag[0], frag[1], tile[state.stage].m8n8(row, col))
                state.advance()

    return roles


def get_kernel(n_blocks: int = N_BLOCKS):
    return _make(_pick(n_blocks, torch.cuda.get_device_properties(0).multi_processor_count))
