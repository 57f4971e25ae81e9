// Flattening a run into Items (report.hpp).
#include "tirx_verify/report/report.hpp"

#include <string_view>
#include <unordered_map>

namespace tirx::report {

std::vector<Item> collect_items(const std::vector<kernel::KernelReport>& ks) {
  std::vector<Item> out;
  for (const auto& k : ks) {
    for (const auto& b : k.buffers) {
      if (b.error) {
        Item it;
        it.model = k.model;
        it.subject_kind = "buffer";
        it.subject = b.buffer->name;
        it.check = b.error->check_id();
        it.status = prove::Status::kFail;
        it.input_error = true;
        it.message = b.error->message();
        it.fix = b.error->note();
        it.position = b.buffer->position;
        out.push_back(std::move(it));
        continue;
      }
      for (const auto& r : b.results) {
        Item it;
        it.model = k.model;
        it.subject_kind = "buffer";
        it.subject = b.buffer->name;
        it.check = r.id;
        it.status = r.status;
        it.severity = r.severity;
        it.message = r.message;
        it.engine = r.engine;
        it.witness = r.witness;
        it.position = b.buffer->position;
        it.seconds = r.seconds;
        out.push_back(std::move(it));
      }
    }
    // Positions by name, built once per kernel (a lookup per finding was O(ops x findings)).
    std::unordered_map<std::string_view, kernel::JsonPosition> op_pos, buf_pos;
    for (const auto& op : k.model->ops) op_pos.emplace(op.name, op.position);
    for (const auto& bm : k.model->buffers) buf_pos.emplace(bm.name, bm.position);
    for (const auto& f : k.findings) {
      Item it;
      it.model = k.model;
      it.subject_kind = f.subject_kind;
      it.subject = f.subject;
      it.check = f.check;
      it.status = f.status;
      it.severity = f.severity;
      it.message = f.message;
      it.fix = f.fix;
      it.witness = f.witness;
      it.related = f.related;
      it.seconds = f.seconds;
      const auto& index = f.subject_kind == "op" ? op_pos : buf_pos;
      if (f.subject_kind == "op" || f.subject_kind == "buffer")
        if (const auto p = index.find(f.subject); p != index.end()) it.position = p->second;
      out.push_back(std::move(it));
    }
  }
  return out;
}

}  // namespace tirx::report
