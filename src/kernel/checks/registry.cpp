// The one list of kernel checks (kernel_check.hpp). Add a check here and nowhere else; never
// rename an id once released. Each check lives in its own file in this folder.
#include "checks.hpp"

namespace tirx::kernel {

const std::vector<KernelCheckInfo>& kernel_checks() {
  static const std::vector<KernelCheckInfo> kChecks = {
      {"kernel.overlap",
       "buffers live at the same time share no TMEM cell or shared-memory byte; TMEM and shared-memory totals fit "
       "the target",
       "the two buffers, one shared cell or byte with the element of each; or the total and the capacity",
       Severity::kError, checks::overlap},
  };
  return kChecks;
}

}  // namespace tirx::kernel
